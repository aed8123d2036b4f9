#include "checks/sync/sync_counting.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>

#include "checks/sync/sync_abi.h"
#include "instrument/accesses.h"
#include "instrument/hook_functions.h"
#include "instrument/nvvm_barriers.h"
#include "instrument/ptx_catalogue.h"

namespace td {

SyncOp syncOpOf(llvm::CallInst& call) {
  llvm::IRBuilder<> b(&call);
  llvm::Type* i32 = b.getInt32Ty();
  auto arg = [&](unsigned k) { return b.CreateZExtOrTrunc(call.getArgOperand(k), i32); };
  SyncOp op;
  if (auto* asmStmt = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand())) {
    std::optional<PtxStatement> st = parsePtx(asmStmt->getAsmString());
    if (!st) return op;
    if (st->op == PtxOp::Barrier) {
      op.kind = st->arrive ? TD_SYNC_OTHER : TD_SYNC_BLOCK_BARRIER;
      op.waits = !st->arrive;
      op.barrierArrive = st->arrive;
      int countOp = barrierCountOperand(*st);
      op.count = countOp >= 0 ? arg(countOp) : b.getInt32(st->hasCount ? st->mode : 0);
    } else if (st->op == PtxOp::MbarArrive || st->op == PtxOp::CpAsyncMbarArrive) {
      op.kind = TD_SYNC_OTHER;
      op.waits = false;
      op.count = b.getInt32(0);
    }
    return op;
  }
  llvm::Function* callee = call.getCalledFunction();
  if (!callee) return op;
  llvm::StringRef n = callee->getName();
  NvvmBarrier barrier = nvvmBarrierOf(n);
  if (isWholeBlockBarrier(barrier)) {
    op = {TD_SYNC_BLOCK_BARRIER, b.getInt32(0)};
  } else if (barrier == NvvmBarrier::NamedCounted) {
    op = {TD_SYNC_BLOCK_BARRIER, arg(1)};
  } else if (n == "llvm.nvvm.bar.warp.sync") {
    op = {TD_SYNC_WARP, arg(0)};
  }
  return op;
}

void countSynchronisation(llvm::Module& m) {
  llvm::FunctionCallee release = hookFunction(m, Hook::sync_release);
  llvm::FunctionCallee passed = hookFunction(m, Hook::sync_passed);
  std::vector<llvm::CallInst*> calls;
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && !isOwn(f))
      for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
          if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i)) calls.push_back(c);
  for (llvm::CallInst* c : calls) {
    SyncOp op = syncOpOf(*c);
    if (op.kind < 0) continue;
    llvm::IRBuilder<> b(c);
    setHookLocation(b, c);
    llvm::Value* kind = b.getInt32(static_cast<uint32_t>(op.kind));
    b.CreateCall(release, {kind, op.count});
    if (!op.waits) continue;
    b.SetInsertPoint(c->getNextNode());
    setHookLocation(b, c);
    b.CreateCall(passed, {kind, op.count});
  }
}

}  // namespace td
