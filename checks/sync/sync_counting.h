// The synchronisation counts the race, init and sync families keep (device side: sync_counts.cuh): every
// synchronising operation calls __td_sync_release before it and, where the thread waits for others,
// __td_sync_passed after it, with its kind (TD_SYNC_*) and thread count or mask.
#pragma once
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace td {

// What a call synchronises: a TD_SYNC_* kind (checks/sync/sync_abi.h) and its thread count or mask (built
// at the call); kind -1 none.
struct SyncOp {
  int kind = -1;
  llvm::Value* count = nullptr;
  bool waits = true;  // the thread waits for the others (barriers, __syncwarp), so it counts after
  bool barrierArrive = false;  // bar.arrive: a barrier passed without waiting
};
SyncOp syncOpOf(llvm::CallInst& call);

void countSynchronisation(llvm::Module& m);

}  // namespace td
