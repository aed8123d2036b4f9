#include "checks/race/own_bytes.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <map>

#include "checks/race/affine_offsets.h"

namespace td {

struct OwnBytes::Form {
  Affine uniform;         // the offset without its threadIdx.x term
  int64_t perThread = 0;  // a
  Affine lo, hi;          // threadIdx.x in [lo, hi)
  bool single = false;    // hi == lo + 1: one thread
  uint64_t size = 0;
};

namespace {

// Is `target` reached from just after `from` on a path that passes no instruction `stop` accepts?
template <typename Stop>
bool reaches(llvm::Instruction* from, llvm::Instruction* target, Stop stop) {
  std::set<llvm::BasicBlock*> entered;
  std::vector<llvm::BasicBlock*> work;
  auto scan = [&](llvm::BasicBlock::iterator it, llvm::BasicBlock* bb) {
    for (; it != bb->end(); ++it) {
      if (&*it == target) return true;
      if (stop(*it)) return false;
    }
    for (llvm::BasicBlock* succ : llvm::successors(bb))
      if (entered.insert(succ).second) work.push_back(succ);
    return false;
  };
  if (scan(std::next(from->getIterator()), from->getParent())) return true;
  while (!work.empty()) {
    llvm::BasicBlock* bb = work.back();
    work.pop_back();
    if (scan(bb->begin(), bb)) return true;
  }
  return false;
}

bool isThreadX(const llvm::Value* v) {
  if (auto* cast = llvm::dyn_cast<llvm::CastInst>(v); cast && (llvm::isa<llvm::ZExtInst>(cast) || llvm::isa<llvm::SExtInst>(cast)))
    v = cast->getOperand(0);  // threadIdx.x is below 2^31: either extension keeps it
  return sregOf(v) == llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x;
}

// The same special register read twice is one leaf: two reads of blockDim.x cancel.
void canonicalSregs(Affine& a, std::map<unsigned, llvm::Value*>& first) {
  Affine out;
  out.constant = a.constant;
  out.overflowed = a.overflowed;
  for (auto& [v, c] : a.terms) {
    llvm::Value* key = v;
    if (unsigned id = sregOf(v); id != llvm::Intrinsic::not_intrinsic) key = first.try_emplace(id, v).first->second;
    out.overflowed |= Affine::addScaled(out.terms[key], c, 1);
  }
  a = out;
}

Affine constant(int64_t c) {
  Affine a;
  a.constant = c;
  return a;
}

Affine scaled(const Affine& x, int64_t by) {
  Affine a;
  a.add(x, by);
  return a;
}

}  // namespace

OwnBytes::OwnBytes(llvm::Function& f, const BarrierIntervals& intervals)
    : f_(f), intervals_(intervals), dt_(f), li_(dt_) {
  sregs_[llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x] = &f;  // blockDim.x's leaf, read or not
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (isFullBlockBarrier(i)) barriers_.push_back(&i);
}

// Uniform as isUniform says, or built from the header phis of loops with one entering block and one latch
// whose every exit is decided by uniform values (so every thread runs the same iterations), assuming the
// phis being proven uniform.
bool OwnBytes::uniformWithPhis(llvm::Value* v, std::set<const llvm::Value*>& assumed, unsigned depth) {
  if (isUniform(v) || assumed.count(v)) return true;
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (!i || depth > 12 || i->mayReadOrWriteMemory() || llvm::isa<llvm::CallBase>(i)) return false;
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(i)) {
    // One way in and one way round: with two latches (or two ways in) the value a thread gets depends on
    // the way it took, which may differ between threads.
    llvm::Loop* loop = li_.getLoopFor(phi->getParent());
    if (!loop || loop->getHeader() != phi->getParent() || phi->getNumIncomingValues() != 2 || !loop->getLoopLatch() ||
        !loop->getLoopPredecessor())
      return false;
    assumed.insert(phi);
    for (llvm::Value* in : phi->incoming_values())
      if (!uniformWithPhis(in, assumed, depth + 1)) return false;
    llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
    loop->getExitingBlocks(exiting);
    for (llvm::BasicBlock* bb : exiting) {
      auto* br = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator());
      if (!br || (br->isConditional() && !uniformWithPhis(br->getCondition(), assumed, depth + 1))) return false;
    }
    return true;
  }
  for (llvm::Value* o : i->operands())
    if (!uniformWithPhis(o, assumed, depth + 1)) return false;
  return true;
}

// Is `v` (uniform) one value for every access of an interval that `user` runs in? Values that never change
// are; one that does (a loop's step) must be defined once per interval at most (no path from its definition
// back to it without a barrier) and before `user` in the interval (every path from a barrier to `user`
// passes it; from the entry, dominance says so).
bool OwnBytes::fixedWithinInterval(llvm::Value* v, llvm::Instruction* user) {
  if (isUniform(v)) return true;
  std::set<const llvm::Value*> assumed;
  auto* def = llvm::dyn_cast<llvm::Instruction>(v);
  if (!def || !uniformWithPhis(v, assumed, 0) || !dt_.dominates(def, user)) return false;
  auto barrier = [](llvm::Instruction& i) { return isFullBlockBarrier(i); };
  if (reaches(def, def, barrier)) return false;
  for (llvm::Instruction* b : barriers_)
    if (reaches(b, user, [&](llvm::Instruction& i) { return &i == def || isFullBlockBarrier(i); })) return false;
  return true;
}

std::optional<OwnBytes::Form> OwnBytes::formOf(const Access& a) {
  if (!a.plain) return std::nullopt;
  const llvm::DataLayout& dl = f_.getParent()->getDataLayout();
  OffsetForm offsets(dl);
  Form form;
  form.size = a.size;
  Affine offset = offsets.of(a.ptr);
  canonicalSregs(offset, sregs_);
  if (offset.overflowed) return std::nullopt;
  for (auto& [v, c] : offset.terms) {
    if (!c) continue;
    if (isThreadX(v)) {
      if (Affine::addScaled(form.perThread, c, 1)) return std::nullopt;
    } else if (!fixedWithinInterval(v, a.inst)) {
      return std::nullopt;
    } else {
      form.uniform.terms[v] += c;
    }
  }
  form.uniform.constant = offset.constant;
  // The nearest guard that bounds threadIdx.x: `t == c` (one thread) or `t < s`.
  form.lo = constant(0);
  form.hi = Affine{};
  form.hi.terms[sregs_.at(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x)] = 1;  // blockDim.x, unless a guard says less
  llvm::BasicBlock* at = a.inst->getParent();
  for (llvm::DomTreeNode* n = dt_.getNode(at); n && n->getIDom(); n = n->getIDom()) {
    llvm::BasicBlock* up = n->getIDom()->getBlock();
    auto* br = llvm::dyn_cast<llvm::BranchInst>(up->getTerminator());
    auto* cmp = br && br->isConditional() ? llvm::dyn_cast<llvm::ICmpInst>(br->getCondition()) : nullptr;
    if (!cmp) continue;
    bool taken;  // which edge leads to the access
    if (dt_.dominates(llvm::BasicBlockEdge(up, br->getSuccessor(0)), at)) taken = true;
    else if (dt_.dominates(llvm::BasicBlockEdge(up, br->getSuccessor(1)), at)) taken = false;
    else continue;
    llvm::CmpInst::Predicate p = taken ? cmp->getPredicate() : cmp->getInversePredicate();
    llvm::Value* l = cmp->getOperand(0);
    llvm::Value* r = cmp->getOperand(1);
    if (isThreadX(r) && !isThreadX(l)) std::swap(l, r), p = llvm::CmpInst::getSwappedPredicate(p);
    if (!isThreadX(l) || (p != llvm::CmpInst::ICMP_EQ && p != llvm::CmpInst::ICMP_ULT && p != llvm::CmpInst::ICMP_SLT))
      continue;
    // Unsigned, a bound read as signed must not be negative (`t < s - 1` with s = 0 lets every thread in).
    if (p == llvm::CmpInst::ICMP_ULT && !knownNonNegative(r, dl)) continue;
    Affine bound = offsets.of(r);
    canonicalSregs(bound, sregs_);
    bool fixed = !bound.overflowed;
    for (auto& [v, c] : bound.terms)
      if (c && (isThreadX(v) || !fixedWithinInterval(v, a.inst))) fixed = false;
    if (!fixed) continue;
    if (p == llvm::CmpInst::ICMP_EQ) {
      form.lo = bound;
      form.hi = bound;
      form.hi.overflowed |= Affine::addScaled(form.hi.constant, 1, 1);
      form.single = true;
    } else {
      form.hi = bound;
    }
    break;
  }
  return form;
}

// Can no thread's access `x` meet another thread's access `y`?
bool OwnBytes::apart(const Form& x, const Form& y) const {
  auto same = [](const Affine& p, const Affine& q) {
    Affine d = p;
    d.add(q, -1);
    return !d.overflowed && d.isConstant() && d.constant == 0;
  };
  if (x.single && y.single && same(x.lo, y.lo)) return true;  // one thread runs both
  // One coefficient for both: a one-thread access takes the other's (its offset at its thread stays).
  int64_t a = x.perThread;
  Affine ux = x.uniform, uy = y.uniform;
  if (x.perThread != y.perThread) {
    if (y.single) {
      uy.add(y.lo, y.perThread - x.perThread);
    } else if (x.single) {
      a = y.perThread;
      ux.add(x.lo, x.perThread - y.perThread);
    } else {
      return false;
    }
  }
  Affine d = ux;  // u_x - u_y
  d.add(uy, -1);
  if (d.overflowed) return false;
  uint64_t magnitude = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  if (d.isConstant() && d.constant == 0 && magnitude >= std::max(x.size, y.size)) return true;
  // The threads' difference t_x - t_y lies in [lo_x - hi_y + 1, hi_x - 1 - lo_y]; a * it at its ends.
  Affine low = x.lo, high = x.hi;
  low.add(y.hi, -1);
  low.constant += 1;
  high.add(y.lo, -1);
  high.constant -= 1;
  Affine least = scaled(a >= 0 ? low : high, a), most = scaled(a >= 0 ? high : low, a);
  // Every y byte below x's: u_x - u_y + a * d >= size_y for every d.
  Affine above = d;
  above.add(least, 1);
  above.constant -= static_cast<int64_t>(y.size);
  if (!above.overflowed && above.isConstant() && above.constant >= 0) return true;
  // Every y byte above x's: u_x - u_y + a * d <= -size_x for every d.
  Affine below = d;
  below.add(most, 1);
  below.constant += static_cast<int64_t>(x.size);
  return !below.overflowed && below.isConstant() && below.constant <= 0;
}

std::set<const llvm::Instruction*> OwnBytes::proven(const std::vector<Access>& accesses) {
  std::vector<std::optional<Form>> forms;
  for (const Access& a : accesses) forms.push_back(formOf(a));
  std::set<const llvm::Instruction*> out;
  for (size_t i = 0; i < accesses.size(); ++i) {
    if (!forms[i]) continue;
    const llvm::BitVector& at = intervals_.of(accesses[i].inst);
    bool alone = true;
    for (size_t j = 0; j < accesses.size() && alone; ++j) {
      if (!(accesses[i].write || accesses[j].write) || !at.anyCommon(intervals_.of(accesses[j].inst))) continue;
      alone = forms[j] && apart(*forms[i], *forms[j]);
    }
    if (alone) out.insert(accesses[i].inst);
  }
  return out;
}

}  // namespace td
