// The operations retarget.cpp lowers to the CPU executor's scheduler calls (__td_cpu_warp's `op` and `mode`,
// __td_cpu_barrier_reduce's `op`), named once for the code that emits them and the scheduler that runs them.
#pragma once

namespace td::cpu {

enum WarpOp { kShfl = 0, kVote = 1, kSyncWarp = 2, kActiveMask = 3, kInlinePtx = 4, kRedux = 5 };
enum ShflMode { kIdx = 0, kUp = 1, kDown = 2, kBfly = 3 };
enum VoteMode { kAll = 0, kAny = 1, kUni = 2, kBallot = 3 };  // the catalogue's vote modes too (PtxStatement::mode)
enum BarrierReduce { kRedNone = 0, kRedPopc = 1, kRedAnd = 2, kRedOr = 3 };
// redux.sync's mode (PtxStatement::mode): 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor; plus this when signed.
constexpr int kReduxSigned = 8;

}  // namespace td::cpu
