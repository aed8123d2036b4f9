// Shared accesses that meet no other thread's write in any barrier interval they run in. The tree of a
// block reduction,
//   for (s = blockDim.x / 2; s > 0; s >>= 1) { if (t < s) buf[t] += buf[t + s]; __syncthreads(); }
// reads and writes `buf` in one interval, yet thread t writes only buf[t], which no other thread of the step
// reads: the others read buf[t'] (their own) and buf[t' + s] >= buf[s], above every element written. Such
// accesses need no race check.
//
// Each access's byte offset must be `u + a * threadIdx.x`, u the same for every thread of an interval, with
// threadIdx.x in [lo, hi): from a dominating guard (`t < s`, or `t == c` for one thread), else [0, blockDim.x).
// Two accesses (one a write) cannot meet across threads where, d the difference of their threads' indices,
//   u1 == u2 and |a| >= both sizes, or u1 - u2 + a * d >= size2 for every d, or <= -size1 for every d,
// proven at compile time (the bounds' leaves cancel: `-4s + 4(s - 1) + 4 = 0`). A leaf that is uniform but
// changes (the step `s`, a loop phi) must be defined once per interval, before every access that uses it.
// Sound for blockDim.y == blockDim.z == 1 (the hook's condition; other launches keep the check) and where every
// thread passes the same barriers (barrier_intervals.h: the sync family checks it).
#pragma once
#include <llvm/ADT/BitVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "checks/race/barrier_intervals.h"

namespace td {

class OwnBytes {
 public:
  // One plain load or store of a shared array: `ptr` the address, `size` its bytes.
  struct Access {
    llvm::Instruction* inst;
    llvm::Value* ptr;
    uint64_t size;
    bool write;
    bool plain;  // a load or store, not atomic, of a size known before the run
  };
  OwnBytes(llvm::Function& f, const BarrierIntervals& intervals);
  // Of the accesses to one array in this function (all of them: any other kind of access to it that shares
  // an interval must be left out of `proven` by the caller), those no other thread's access meets in an
  // interval they share, where one of the two writes.
  std::set<const llvm::Instruction*> proven(const std::vector<Access>& accesses);

 private:
  struct Form;
  std::optional<Form> formOf(const Access& a);
  bool fixedWithinInterval(llvm::Value* v, llvm::Instruction* user);
  bool uniformWithPhis(llvm::Value* v, std::set<const llvm::Value*>& assumed, unsigned depth);
  bool apart(const Form& x, const Form& y) const;

  llvm::Function& f_;
  const BarrierIntervals& intervals_;
  llvm::DominatorTree dt_;
  llvm::LoopInfo li_;
  std::vector<llvm::Instruction*> barriers_;
  std::map<unsigned, llvm::Value*> sregs_;  // a special register's leaf: every read of it is one value
};

}  // namespace td
