#include "checks/race/barrier_intervals.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <vector>

#include "instrument/nvvm_barriers.h"
#include "instrument/ptx_catalogue.h"

namespace td {

bool isFullBlockBarrier(const llvm::Instruction& i) {
  auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
  if (!call) return false;
  if (auto* asmStmt = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
    std::optional<PtxStatement> st = parsePtx(asmStmt->getAsmString());
    return st && st->op == PtxOp::Barrier && !st->arrive && !st->hasCount;
  }
  const llvm::Function* callee = call->getCalledFunction();
  if (!callee) return false;
  return isWholeBlockBarrier(nvvmBarrierOf(callee->getName()));
}

bool holdsFullBlockBarrier(const llvm::Loop& loop) {
  for (llvm::BasicBlock* bb : loop.blocks())
    for (llvm::Instruction& i : *bb)
      if (isFullBlockBarrier(i)) return true;
  return false;
}

namespace {

// A call into the user's own code (not an intrinsic, not inline PTX, not a math declaration): it may hold
// barriers and writes of its own.
bool callsUserCode(const llvm::Instruction& i) {
  auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
  if (!call || llvm::isa<llvm::InlineAsm>(call->getCalledOperand())) return false;
  const llvm::Function* callee = call->getCalledFunction();
  return !callee || (!callee->isIntrinsic() && !callee->isDeclaration());
}

}  // namespace

BarrierIntervals::BarrierIntervals(llvm::Function& kernel) {
  llvm::DenseMap<const llvm::Instruction*, unsigned> startOf;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::Instruction& i : bb) {
      if (callsUserCode(i)) known_ = false;
      if (isFullBlockBarrier(i)) startOf[&i] = starts_++;
    }
  none_.resize(starts_);
  if (!known_) return;
  // Forward: the intervals live at a block's start are those of its predecessors' ends; a barrier
  // replaces them by its own. Sets only grow, so this settles.
  llvm::DenseMap<const llvm::BasicBlock*, llvm::BitVector> out;
  std::vector<llvm::BasicBlock*> work;
  for (llvm::BasicBlock& bb : kernel) work.push_back(&bb);
  while (!work.empty()) {
    llvm::BasicBlock* bb = work.back();
    work.pop_back();
    llvm::BitVector live(starts_);
    if (bb == &kernel.getEntryBlock()) live.set(0);
    for (llvm::BasicBlock* pred : llvm::predecessors(bb))
      if (auto it = out.find(pred); it != out.end()) live |= it->second;
    for (llvm::Instruction& i : *bb) {
      if (auto it = startOf.find(&i); it != startOf.end()) {
        live.reset();
        live.set(it->second);
      }
      at_[&i] = live;
    }
    llvm::BitVector& o = out[bb];
    if (o.size() == starts_ && o == live) continue;
    o = live;
    for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
  }
}

const llvm::BitVector& BarrierIntervals::of(const llvm::Instruction* i) const {
  auto it = at_.find(i);
  return it == at_.end() ? none_ : it->second;
}

}  // namespace td
