#include "checks/race/hoisted_init_reads.h"

#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include "checks/race/barrier_intervals.h"

namespace td {

LoopReadRanges::LoopReadRanges(llvm::Function& f)
    : dt_(f), li_(dt_), tlii_(llvm::Triple(f.getParent()->getTargetTriple())), tli_(tlii_), ac_(f) {
  se_ = std::make_unique<llvm::ScalarEvolution>(f, tli_, ac_, dt_, li_);
}

LoopReadRanges::~LoopReadRanges() = default;

std::optional<HoistedRead> LoopReadRanges::of(llvm::LoadInst& load, llvm::Value* ptr, const llvm::GlobalVariable& var) {
  if (!load.isSimple()) return std::nullopt;
  llvm::Loop* loop = li_.getLoopFor(load.getParent());
  if (!loop) return std::nullopt;
  llvm::BasicBlock* preheader = loop->getLoopPreheader();
  llvm::BasicBlock* latch = loop->getLoopLatch();
  // Once per iteration, and every iteration that starts ends at the latch: the read's count is the trip count.
  // A barrier in the loop would let writes of the next interval land between the check and the read.
  if (!preheader || !latch || loop->getExitingBlock() != latch || !dt_.dominates(load.getParent(), latch) ||
      holdsFullBlockBarrier(*loop))
    return std::nullopt;
  llvm::ScalarEvolution& se = *se_;
  llvm::Value* p = ptr->stripPointerCasts();
  auto* base = llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(const_cast<llvm::GlobalVariable*>(&var), p->getType());
  const llvm::SCEV* offset = se.getMinusSCEV(se.getSCEV(p), se.getSCEV(base));
  auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(offset);
  if (!rec || rec->getLoop() != loop || !rec->isAffine()) return std::nullopt;
  auto* step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(se));
  const llvm::SCEV* taken = se.getBackedgeTakenCount(loop);
  if (!step || step->getAPInt().getSignificantBits() > 32 || llvm::isa<llvm::SCEVCouldNotCompute>(taken))
    return std::nullopt;
  llvm::Instruction* at = preheader->getTerminator();
  llvm::Type* i64 = llvm::Type::getInt64Ty(load.getContext());
  const llvm::SCEV* count = se.getAddExpr(se.getNoopOrZeroExtend(taken, i64), se.getOne(i64));
  const llvm::SCEV* first = se.getNoopOrSignExtend(rec->getStart(), i64);
  llvm::SCEVExpander expander(se, load.getModule()->getDataLayout(), "td.range");
  if (!se.isLoopInvariant(first, loop) || !expander.isSafeToExpandAt(first, at) || !expander.isSafeToExpandAt(count, at))
    return std::nullopt;
  return HoistedRead{at, expander.expandCodeFor(first, i64, at), expander.expandCodeFor(count, i64, at),
                     step->getAPInt().getSExtValue()};
}

}  // namespace td
