#include "checks/sync/sync_pass.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>

#include "checks/sync/sync_abi.h"
#include "checks/sync/sync_counting.h"
#include "instrument/accesses.h"
#include "instrument/hook_functions.h"
#include "instrument/ptx_catalogue.h"
#include "instrument/sync_sites.h"

namespace td {

namespace {

// The member mask of a warp collective (__syncwarp, shuffles, votes, match, redux), or nullptr.
llvm::Value* warpMaskOf(llvm::CallInst& call) {
  if (auto* asmStmt = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand())) {
    std::optional<PtxStatement> st = parsePtx(asmStmt->getAsmString());
    if (!st) return nullptr;
    if (st->op == PtxOp::Shfl) return call.getArgOperand(3);   // a, b, c, membermask
    if (st->op == PtxOp::Redux) return call.getArgOperand(1);  // a, membermask
    if (st->op == PtxOp::Vote) return call.getArgOperand(st->sizeOperand - 1);  // $0 is the result
    return nullptr;
  }
  llvm::Function* callee = call.getCalledFunction();
  if (!callee) return nullptr;
  llvm::StringRef n = callee->getName();
  if (n == "llvm.nvvm.bar.warp.sync" || n.starts_with("llvm.nvvm.shfl.sync.") || n.starts_with("llvm.nvvm.vote.") ||
      n.starts_with("llvm.nvvm.match."))
    return call.getArgOperand(0);
  if (n.starts_with("llvm.nvvm.redux.sync.")) return call.getArgOperand(1);
  return nullptr;
}

// 32-bit shifts by an amount computed at run time: the hook sees the amount (on a 64-lane wave, 32-63 is a
// lane bit that does not fit). Constant amounts are the compiler's own arithmetic and cannot be.
void hookLaneShifts(llvm::Module& m, SiteTable& table_) {
  llvm::FunctionCallee hook = hookFunction(m, Hook::lane_shift);
  std::vector<llvm::BinaryOperator*> shifts;
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || isOwn(f)) continue;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* op = llvm::dyn_cast<llvm::BinaryOperator>(&i);
            op && op->isShift() && op->getType()->isIntegerTy(32) && !llvm::isa<llvm::Constant>(op->getOperand(1)))
          shifts.push_back(op);
  }
  for (llvm::BinaryOperator* op : shifts) {
    Site s;
    s.kind = SiteKind::WarpOp;
    s.loc = userLocation(*op);
    s.what = op->getOpcode() == llvm::Instruction::Shl ? "shift (<<)" : "shift (>>)";
    unsigned site = table_.add(s);
    llvm::IRBuilder<> b(op);
    setHookLocation(b, op);
    b.CreateCall(hook, {b.getInt32(site), op->getOperand(1)});
  }
}

}  // namespace

void hookBarriersExitsAndMasks(llvm::Module& m, SiteTable& sites) {
  llvm::Type* i32 = llvm::Type::getInt32Ty(m.getContext());
  llvm::FunctionCallee barrierWait = hookFunction(m, Hook::barrier_wait);
  llvm::FunctionCallee barrierPassed = hookFunction(m, Hook::barrier_passed);
  llvm::FunctionCallee threadExit = hookFunction(m, Hook::thread_exit);
  llvm::FunctionCallee barrierArrive = hookFunction(m, Hook::barrier_arrive);
  llvm::FunctionCallee warpMask = hookFunction(m, Hook::warp_mask);
  hookLaneShifts(m, sites);
  std::vector<llvm::CallInst*> calls;
  std::vector<llvm::ReturnInst*> exits;
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || isOwn(f)) continue;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i)) calls.push_back(c);
        if (auto* r = llvm::dyn_cast<llvm::ReturnInst>(&i); r && isKernel(f)) exits.push_back(r);
      }
  }
  for (llvm::ReturnInst* r : exits) {
    llvm::IRBuilder<> b(r);
    setHookLocation(b, r);
    b.CreateCall(threadExit, {});
  }
  for (llvm::CallInst* c : calls) {
    int site = siteOf(*c);
    if (site < 0) continue;
    llvm::IRBuilder<> b(c);
    setHookLocation(b, c);
    if (llvm::Value* mask = warpMaskOf(*c); mask && mask->getType()->isIntegerTy()) {
      auto* literal = llvm::dyn_cast<llvm::ConstantInt>(mask);
      bool full32 = literal && literal->getZExtValue() == 0xffffffffu;  // written for 32-lane warps
      b.CreateCall(warpMask, {b.getInt32(static_cast<uint32_t>(site)), b.CreateZExtOrTrunc(mask, i32), b.getInt32(full32)});
    }
    SyncOp op = syncOpOf(*c);
    if (op.kind == TD_SYNC_BLOCK_BARRIER && op.waits) {
      b.CreateCall(barrierWait, {b.getInt32(static_cast<uint32_t>(site)), op.count});
      // Right after the barrier; the synchronisation counts, placed later, put their own hook between them.
      llvm::IRBuilder<> after(c->getNextNode());
      setHookLocation(after, c);
      after.CreateCall(barrierPassed, {after.getInt32(static_cast<uint32_t>(site)), op.count});
    }
    if (op.barrierArrive) b.CreateCall(barrierArrive, {b.getInt32(static_cast<uint32_t>(site))});
  }
}

}  // namespace td
