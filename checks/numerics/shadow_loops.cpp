// Loops in the numerics family's shadow pass: which iteration a store or an accumulator drifted in. Every
// loop with a shadowed store gets an iteration counter. Accumulators (FP phis of a loop header: a running
// sum, an mma fragment) updated at one source line of one loop are one accumulation (an unrolled tile's 16
// sums, a fragment's registers): it counts its steps and has its drift checked inline at every
// TD_NUM_STRIDE-th step, normwise — each element's error against the largest magnitude any of its elements
// had at the steps checked; the runtime hears of it once, when the drift reaches its type's threshold level
// (numerics_abi.h, TD_NUM_LEVELS). One counter, scale and level per accumulation, not per element: a
// register tile of them would otherwise cost the kernel its occupancy.
#include "checks/numerics/function_shadows.h"
#include "instrument/hook_functions.h"

#include <cmath>
#include <map>
#include <tuple>
#include <llvm/IR/Dominators.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

namespace td::shadows {

llvm::PHINode* FunctionShadows::iterationCounter(llvm::Loop& loop) {
  if (llvm::PHINode* c = counters_.lookup(&loop)) return c;
  llvm::BasicBlock* header = loop.getHeader();
  llvm::IRBuilder<> b(ctx_);
  auto* counter = llvm::PHINode::Create(b.getInt32Ty(), 2, "td.iteration", header->begin());
  for (llvm::BasicBlock* pred : llvm::predecessors(header)) {
    if (!loop.contains(pred)) {
      counter->addIncoming(b.getInt32(0), pred);
      continue;
    }
    b.SetInsertPoint(pred->getTerminator());
    counter->addIncoming(b.CreateAdd(counter, b.getInt32(1)), pred);
  }
  counters_[&loop] = counter;
  return counter;
}

// The incoming value of `phi` from outside `loop` (the first, where several edges enter).
static llvm::Value* enteringValue(llvm::PHINode& phi, const llvm::Loop& loop) {
  for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k)
    if (!loop.contains(phi.getIncomingBlock(k))) return phi.getIncomingValue(k);
  return nullptr;
}

// How many arithmetic operations of one iteration of `loop` the accumulator goes through on its way back to
// `phi` (an unrolled k loop: 16 adds; a TileLang k-tile: the mma statements on its fragment).
static unsigned updatesPerIteration(llvm::PHINode& phi, const llvm::Loop& loop) {
  llvm::SmallPtrSet<llvm::Instruction*, 32> from, to;
  std::vector<llvm::Instruction*> work{&phi};
  while (!work.empty()) {  // everything in the loop computed from the phi
    llvm::Instruction* i = work.back();
    work.pop_back();
    for (llvm::User* u : i->users()) {
      auto* ui = llvm::dyn_cast<llvm::Instruction>(u);
      if (!ui || !loop.contains(ui) || (llvm::isa<llvm::PHINode>(ui) && ui->getParent() == loop.getHeader())) continue;
      if (from.insert(ui).second) work.push_back(ui);  // not past the header's phis: the next iteration
    }
  }
  for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k)  // and everything the back edges' values come from
    if (loop.contains(phi.getIncomingBlock(k)))
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(phi.getIncomingValue(k))) work.push_back(i);
  unsigned updates = 0;
  while (!work.empty()) {
    llvm::Instruction* i = work.back();
    work.pop_back();
    if (!loop.contains(i) || !from.count(i) || !to.insert(i).second) continue;
    bool arithmetic = (llvm::isa<llvm::BinaryOperator>(i) && i->getType()->isFPOrFPVectorTy()) ||
                      (llvm::isa<llvm::CallInst>(i) && !llvm::isa<llvm::IntrinsicInst>(i)) ||
                      (llvm::isa<llvm::IntrinsicInst>(i) && i->getType()->isFPOrFPVectorTy());
    if (arithmetic) ++updates;
    for (llvm::Value* op : i->operands())
      if (auto* oi = llvm::dyn_cast<llvm::Instruction>(op)) work.push_back(oi);
  }
  return std::max(updates, 1u);
}

void FunctionShadows::watchLoops() {
  llvm::DominatorTree dt(f_);
  llvm::LoopInfo loops(dt);
  if (loops.empty()) return;
  // An accumulator is an FP phi of a loop header; where it enters from a phi of the enclosing loop's header
  // (a GEMM's k-tile loop around its k loop), the two are one accumulation, counted across both: from the
  // outermost such loop's entry, every iteration of the inner loop is a step.
  llvm::DenseMap<llvm::Value*, std::pair<llvm::Value*, llvm::Type*>> headerPhis;
  std::vector<llvm::Value*> inOrder;  // the FP phis in program order (site ids do not depend on addresses)
  for (auto [phi, s] : phis_) headerPhis[phi] = {s, phi->getType()}, inOrder.push_back(phi);
  for (auto [phi, s, t] : bitsPhis_) headerPhis[phi] = {s, t}, inOrder.push_back(phi);
  std::vector<Accumulation> found;
  llvm::SmallPtrSet<llvm::Value*, 16> enclosing;  // outer phis an inner accumulator carries on
  for (llvm::Value* v : inOrder) {
    const auto& st = headerPhis[v];
    auto* phi = llvm::cast<llvm::PHINode>(v);
    llvm::Loop* inner = loops.getLoopFor(phi->getParent());
    if (!inner || inner->getHeader() != phi->getParent()) continue;
    llvm::Loop* outer = inner;
    while (llvm::Loop* parent = outer->getParentLoop()) {
      auto* q = llvm::dyn_cast_or_null<llvm::PHINode>(enteringValue(*phi, *outer));
      if (!q || q->getParent() != parent->getHeader() || !headerPhis.count(q)) break;
      enclosing.insert(q);
      phi = q;
      outer = parent;
    }
    Accumulation a{llvm::cast<llvm::PHINode>(v), st.first, st.second, {}, updatesPerIteration(*llvm::cast<llvm::PHINode>(v), *inner),
                   outer->getHeader()};
    for (llvm::BasicBlock* pred : llvm::predecessors(outer->getHeader()))
      if (!outer->contains(pred)) a.entries.push_back(pred);
    found.push_back(a);
  }
  // Counters for the stores' loops before anything is split, which leaves `loops` behind.
  for (llvm::StoreInst* st : stores_)
    if (llvm::Loop* l = loops.getLoopFor(st->getParent())) storeIteration_[st] = iterationCounter(*l);
  // One accumulation per loop, outermost loop carried through, source line and type (in the order found).
  std::map<std::tuple<llvm::BasicBlock*, llvm::BasicBlock*, std::string, unsigned, unsigned, std::string>, size_t> groupOf;
  std::vector<std::vector<Accumulation>> groups;
  for (const Accumulation& a : found) {
    if (enclosing.count(a.phi)) continue;
    SourceLoc at = userLocation(*updateOf(a));
    auto key = std::make_tuple(a.phi->getParent(), a.outermost, at.file, at.line, at.col, std::string(typeName(a.fpType)));
    auto [it, fresh] = groupOf.emplace(key, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(a);
  }
  for (const std::vector<Accumulation>& g : groups) watchAccumulation(g);
}

// Where an accumulator is updated: the first value it takes that is computed in its loop's body.
const llvm::Instruction* FunctionShadows::updateOf(const Accumulation& a) {
  llvm::PHINode& phi = *a.phi;
  for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k)
    if (auto* i = llvm::dyn_cast<llvm::Instruction>(phi.getIncomingValue(k));
        i && i != &phi && !llvm::isa<llvm::PHINode>(i) && i->getDebugLoc() &&
        std::find(a.entries.begin(), a.entries.end(), phi.getIncomingBlock(k)) == a.entries.end())
      return i;
  return &phi;
}

void FunctionShadows::promoteLoopState() {
  if (loopState_.empty()) return;
  llvm::DominatorTree dt(f_);
  llvm::PromoteMemToReg(loopState_, dt);
}

void FunctionShadows::watchAccumulation(const std::vector<Accumulation>& group) {
  const Accumulation& a = group.front();
  llvm::BasicBlock* header = a.phi->getParent();
  const llvm::Instruction* update = updateOf(a);
  Site s;
  s.kind = SiteKind::Accumulator;
  s.loc = userLocation(*update);
  s.what = typeName(a.fpType);
  s.size = a.fpType->getScalarSizeInBits() / 8;
  s.updatesPerStep = 0;
  for (const Accumulation& x : group) s.updatesPerStep = std::max(s.updatesPerStep, x.updates);
  unsigned id = sites_.add(s);
  for (const Accumulation& x : group) accumulators_[x.phi] = id;

  // Its state, per thread, from the accumulation's entry on: steps taken, the largest magnitude of any of its
  // elements so far, and the relative error to report: its type's threshold level, inf once reported (the
  // host asks no more: the first iteration at that level). Kept in allocas, promoted to registers at the end.
  llvm::IRBuilder<> entry(&*f_.getEntryBlock().getFirstInsertionPt());
  llvm::Type* i32 = entry.getInt32Ty();
  // The checks run in the shadow's type: float for half and bfloat16 (fp32 shadows), double for float.
  llvm::Type* scalar = a.shadow->getType()->getScalarType();
  llvm::AllocaInst* steps = entry.CreateAlloca(i32, nullptr, "td.acc.steps");
  llvm::AllocaInst* largest = entry.CreateAlloca(scalar, nullptr, "td.acc.largest");
  llvm::AllocaInst* next = entry.CreateAlloca(scalar, nullptr, "td.acc.next");
  loopState_.insert(loopState_.end(), {steps, largest, next});
  auto levelIt = accumulatorLevels_.find(s.what);
  int threshold = levelIt == accumulatorLevels_.end() ? 0 : levelIt->second;
  auto reset = [&](llvm::IRBuilder<>& b) {
    b.CreateStore(b.getInt32(0), steps);
    b.CreateStore(llvm::ConstantFP::get(scalar, 0.0), largest);
    b.CreateStore(llvm::ConstantFP::get(scalar, std::ldexp(1.0, threshold - TD_NUM_LEVELS)), next);
  };
  reset(entry);
  for (llvm::BasicBlock* pred : a.entries) {
    llvm::IRBuilder<> b(pred->getTerminator());
    reset(b);
  }

  // Every TD_NUM_STRIDE-th step (the first included): the largest error of an element against the largest
  // magnitude, times the threshold level (no division); the cold path, taken once, reports that level at
  // this step. Checking every step would cost more than the accumulation itself
  // on the GPU.
  llvm::IRBuilder<> counting(header, header->getFirstInsertionPt());
  llvm::Value* step = counting.CreateLoad(i32, steps);
  counting.CreateStore(counting.CreateAdd(step, counting.getInt32(1)), steps);
  llvm::Value* sampled = counting.CreateICmpEQ(counting.CreateAnd(step, TD_NUM_STRIDE - 1), counting.getInt32(0));
  llvm::Instruction* checking = llvm::SplitBlockAndInsertIfThen(sampled, counting.GetInsertPoint(), false);
  llvm::IRBuilder<> b(checking);
  if (update != a.phi) setHookLocation(b, const_cast<llvm::Instruction*>(update));
  std::vector<llvm::Value*> errs, mags;  // per element
  for (const Accumulation& x : group) {
    auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(x.fpType);
    llvm::Type* wide = vec ? static_cast<llvm::Type*>(llvm::FixedVectorType::get(scalar, vec->getNumElements())) : scalar;
    llvm::Value* value = x.phi;
    if (x.phi->getType() != x.fpType)
      value = b.CreateBitCast(b.CreateZExtOrTrunc(x.phi, b.getIntNTy(static_cast<unsigned>(x.fpType->getPrimitiveSizeInBits()))),
                              x.fpType);
    llvm::Value* sh = convert(b, x.shadow, wide);
    llvm::Value* err = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, b.CreateFSub(convert(b, value, wide), sh));
    llvm::Value* mag = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, sh);
    errs.push_back(err);
    mags.push_back(mag);
  }
  auto largestOf = [&](const std::vector<llvm::Value*>& v) {
    return reduceLanes(b, v, [&](llvm::Value* x, llvm::Value* y) { return b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, y); });
  };
  llvm::Value* scale = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, b.CreateLoad(scalar, largest), largestOf(mags));
  b.CreateStore(scale, largest);
  // Measured only once the accumulation has reached its type's normal range: a subnormal partial sum (an exp
  // of a very negative number, say) carries few bits by nature, and the terms after it dwarf it.
  double smallestNormal = a.fpType->getScalarType()->isHalfTy() ? 0x1p-14 : 0x1p-126;
  llvm::Value* measurable = b.CreateFCmpOGE(scale, llvm::ConstantFP::get(scalar, smallestNormal));
  llvm::Value* limit = b.CreateFMul(scale, b.CreateLoad(scalar, next));
  llvm::Value* hit = b.CreateAnd(measurable, b.CreateFCmpOGE(largestOf(errs), limit));
  llvm::MDNode* cold = llvm::MDBuilder(ctx_).createBranchWeights(1, 1u << 20);
  llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(hit, b.GetInsertPoint(), false, cold);
  llvm::IRBuilder<> t(then);
  t.SetCurrentDebugLocation(b.getCurrentDebugLocation());
  // The threshold level, not the one reached: the host reads no other (drift_findings, firstIteration).
  llvm::FunctionCallee hook = hookFunction(m_, Hook::num_accumulator);
  t.CreateCall(hook, {t.getInt32(id), step, t.getInt32(threshold)});
  t.CreateStore(llvm::ConstantFP::getInfinity(scalar), next);
}

int FunctionShadows::originOf(llvm::Value* stored) {
  std::vector<llvm::Value*> work{stored};
  llvm::SmallPtrSet<llvm::Value*, 32> seen;
  while (!work.empty() && seen.size() < 512) {
    llvm::Value* v = work.front();
    work.erase(work.begin());  // breadth first: the nearest accumulator
    if (auto it = accumulators_.find(v); it != accumulators_.end()) return static_cast<int>(it->second);
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    if (!i || !seen.insert(i).second || llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::AllocaInst>(i)) continue;
    for (llvm::Value* op : i->operands()) work.push_back(op);
  }
  return -1;
}

}  // namespace td::shadows
