#include "checks/race/affine_offsets.h"

#include <map>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/PatternMatch.h>

namespace td {

namespace {

llvm::Value* unfrozen(llvm::Value* v) {
  auto* f = llvm::dyn_cast<llvm::FreezeInst>(v);
  return f ? f->getOperand(0) : v;
}

// x where `v` is (x / C) * C (a division by C, or a shift by log2 C, times C); else null.
llvm::Value* quotientTimesDivisor(llvm::Value* v) {
  using namespace llvm::PatternMatch;
  llvm::Value* q = nullptr;
  const llvm::APInt* c = nullptr;
  if (!match(v, m_c_Mul(m_Value(q), m_APInt(c))) && !match(v, m_Shl(m_Value(q), m_APInt(c)))) return nullptr;
  llvm::APInt divisor = match(v, m_Shl(m_Value(), m_Value())) ? llvm::APInt::getOneBitSet(c->getBitWidth(), static_cast<unsigned>(c->getZExtValue()))
                                                              : *c;
  llvm::Value* x = nullptr;
  const llvm::APInt* d = nullptr;
  if (match(q, m_SDiv(m_Value(x), m_APInt(d))) || match(q, m_UDiv(m_Value(x), m_APInt(d)))) {
    if (*d == divisor && divisor.sgt(1)) return unfrozen(x);
  } else if (match(q, m_AShr(m_Value(x), m_APInt(d))) || match(q, m_LShr(m_Value(x), m_APInt(d)))) {
    if (d->ult(c->getBitWidth()) && divisor == llvm::APInt::getOneBitSet(c->getBitWidth(), static_cast<unsigned>(d->getZExtValue())))
      return unfrozen(x);
  }
  return nullptr;
}

Affine leaf(llvm::Value* v) {
  Affine a;
  a.terms[v] = 1;
  return a;
}

// Is `v` computed from `phi` (within a few steps)?
bool dependsOn(const llvm::Value* v, const llvm::Value* phi, unsigned depth) {
  if (v == phi) return true;
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (!i || depth > 12 || llvm::isa<llvm::PHINode>(i)) return false;
  for (const llvm::Value* o : i->operands())
    if (dependsOn(o, phi, depth + 1)) return true;
  return false;
}

// The largest unsigned value `v` can have, where that is known: CUDA's limits on thread and block indices
// and sizes, constants, and what shifts, divisions, masks, extensions and non-wrapping arithmetic keep of them;
// a loop's phi by its entering value where its other values stay below that (`s >>= 1`). `assumed`: phis
// taken at a bound while their own loop is proven.
std::optional<uint64_t> largest(const llvm::Value* v, std::map<const llvm::Value*, uint64_t>& assumed, unsigned depth) {
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v))
    return c->getBitWidth() <= 64 ? std::optional<uint64_t>(c->getZExtValue()) : std::nullopt;
  if (auto it = assumed.find(v); it != assumed.end()) return it->second;
  switch (sregOf(v)) {
    case llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y:
      return 1023;
    case llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z:
      return 63;
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y:
      return 1024;
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z:
      return 64;
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
      return (uint64_t{1} << 31) - 1;
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
      return 65535;
    default:
      break;
  }
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (!i || depth > 12) return std::nullopt;
  auto operand = [&](unsigned k) { return largest(i->getOperand(k), assumed, depth + 1); };
  auto constantOperand = [&](unsigned k) -> std::optional<uint64_t> {
    auto* c = llvm::dyn_cast<llvm::ConstantInt>(i->getOperand(k));
    return c && c->getBitWidth() <= 64 ? std::optional<uint64_t>(c->getZExtValue()) : std::nullopt;
  };
  switch (i->getOpcode()) {
    case llvm::Instruction::ZExt:
      return operand(0);
    case llvm::Instruction::LShr: {
      std::optional<uint64_t> x = operand(0), by = constantOperand(1);
      unsigned bits = i->getType()->getScalarSizeInBits();
      if (by && *by < 64 && bits <= 64) return (x ? *x : (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1)) >> *by;
      return x;  // a shift by a variable amount makes nothing larger
    }
    case llvm::Instruction::UDiv: {
      std::optional<uint64_t> x = operand(0), by = constantOperand(1);
      return x && by && *by ? std::optional<uint64_t>(*x / *by) : x;
    }
    case llvm::Instruction::And: {
      std::optional<uint64_t> l = operand(0), r = operand(1);
      if (l && r) return std::min(*l, *r);
      return l ? l : r;
    }
    case llvm::Instruction::Add:
    case llvm::Instruction::Mul: {
      std::optional<uint64_t> l = operand(0), r = operand(1);
      uint64_t result = 0;
      unsigned bits = i->getType()->getScalarSizeInBits();
      if (!l || !r || bits > 63) return std::nullopt;
      bool over = i->getOpcode() == llvm::Instruction::Add ? __builtin_add_overflow(*l, *r, &result)
                                                           : __builtin_mul_overflow(*l, *r, &result);
      if (over || (result >> bits) != 0) return std::nullopt;  // it may wrap: a small result is possible
      return result;
    }
    case llvm::Instruction::PHI: {
      auto* phi = llvm::cast<llvm::PHINode>(i);
      // First the values that do not come back through the phi, then all of them with the phi at that bound.
      std::optional<uint64_t> bound;
      for (const llvm::Value* in : phi->incoming_values()) {
        if (dependsOn(in, phi, 0)) continue;
        std::optional<uint64_t> x = largest(in, assumed, depth + 1);
        if (!x) return std::nullopt;
        bound = std::max(bound.value_or(0), *x);
      }
      if (!bound) return std::nullopt;
      std::map<const llvm::Value*, uint64_t> with = assumed;
      with[phi] = *bound;
      for (const llvm::Value* in : phi->incoming_values()) {
        std::optional<uint64_t> x = largest(in, with, depth + 1);
        if (!x || *x > *bound) return std::nullopt;
      }
      return bound;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

bool knownNonNegative(const llvm::Value* v, const llvm::DataLayout& dl) {
  if (llvm::isKnownNonNegative(v, dl)) return true;
  std::map<const llvm::Value*, uint64_t> assumed;
  std::optional<uint64_t> most = largest(v, assumed, 0);
  unsigned bits = v->getType()->getScalarSizeInBits();
  return most && bits >= 1 && bits <= 64 && *most < (uint64_t{1} << (bits - 1));
}

unsigned sregOf(const llvm::Value* v) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(v);
  llvm::Function* f = call ? call->getCalledFunction() : nullptr;
  return f ? f->getIntrinsicID() : llvm::Intrinsic::not_intrinsic;
}

bool uniformSreg(unsigned id) {
  switch (id) {
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
      return true;
    default:
      return false;
  }
}

Leaf leafKind(const llvm::Value* v) {
  if (sregOf(v) == llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x) return Leaf::Thread;
  return isUniform(v, 0) ? Leaf::Uniform : Leaf::Varying;
}

bool isUniform(const llvm::Value* v, unsigned depth) {
  if (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::Constant>(v)) return true;
  unsigned id = sregOf(v);
  if (id != llvm::Intrinsic::not_intrinsic) return uniformSreg(id);
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (!i || depth > 8 || i->mayReadOrWriteMemory() || llvm::isa<llvm::PHINode>(i) || llvm::isa<llvm::CallBase>(i)) return false;
  for (const llvm::Value* o : i->operands())
    if (!isUniform(o, depth + 1)) return false;
  return true;
}

Affine OffsetForm::of(llvm::Value* v, unsigned depth) {
  Affine a;
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
    if (c->getBitWidth() > 64) return leaf(v);
    a.constant = c->getSExtValue();
    return a;
  }
  auto* op = llvm::dyn_cast<llvm::Operator>(v);
  if (!op || depth > 24) return leaf(v);
  switch (op->getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Mul:
    case llvm::Instruction::Shl:
      return arithmetic(op, depth);
    case llvm::Instruction::Or:  // `or disjoint`: an add with no carries
      if (auto* d = llvm::dyn_cast<llvm::PossiblyDisjointInst>(op); d && d->isDisjoint()) {
        a = of(op->getOperand(0), depth + 1);
        a.add(of(op->getOperand(1), depth + 1), 1);
        return a;
      }
      return leaf(v);
    case llvm::Instruction::SExt:
      return of(op->getOperand(0), depth + 1);  // exact where the narrow arithmetic did not wrap (nsw below)
    case llvm::Instruction::ZExt:  // of what is not negative, or of arithmetic that does not wrap unsigned
      if (std::optional<Affine> u = unsignedForm(op->getOperand(0), depth + 1)) return *u;
      return leaf(v);
    case llvm::Instruction::Freeze:
    case llvm::Instruction::PtrToInt:
    case llvm::Instruction::AddrSpaceCast:
    case llvm::Instruction::BitCast:
      return of(op->getOperand(0), depth + 1);
    case llvm::Instruction::GetElementPtr: {
      auto* gep = llvm::cast<llvm::GEPOperator>(op);
      unsigned bits = dl_.getIndexSizeInBits(gep->getPointerAddressSpace());
      llvm::MapVector<llvm::Value*, llvm::APInt> variable;
      llvm::APInt constant(bits, 0);
      if (bits > 64 || !gep->collectOffset(dl_, bits, variable, constant)) return leaf(v);
      a = of(gep->getPointerOperand(), depth + 1);
      a.overflowed |= Affine::addScaled(a.constant, constant.getSExtValue(), 1);
      for (auto& [index, scale] : variable) a.add(of(index, depth + 1), scale.getSExtValue());
      return a;
    }
    default:
      return leaf(v);
  }
}

// Narrower than the address, the arithmetic must not wrap: the flags say so, or it is a remainder's
// expansion, which cannot (`(x / C) * C` and `x - (x / C) * C`, as the optimiser writes `x % C`).
bool OffsetForm::exact(llvm::Operator* op) const {
  if (op->getType()->getScalarSizeInBits() >= 64) return true;
  auto* ob = llvm::dyn_cast<llvm::OverflowingBinaryOperator>(op);
  if (ob && ob->hasNoSignedWrap()) return true;
  if (op->getOpcode() == llvm::Instruction::Mul) return quotientTimesDivisor(op) != nullptr;
  if (op->getOpcode() == llvm::Instruction::Sub) {
    llvm::Value* x = quotientTimesDivisor(op->getOperand(1));
    return x && x == unfrozen(op->getOperand(0));
  }
  return false;
}

// `v` read as unsigned, where that is a sum of leaves: a thread or block index (below 2^31) or what is known
// not negative is its signed value; `a + b` (`a * C`, `a << C`) that cannot wrap unsigned (its nuw flag or
// its operands' known bits say so) is the unsigned sum of its unsigned operands (`zext(s + t)` for
// `buf[t + s]`).
std::optional<Affine> OffsetForm::unsignedForm(llvm::Value* v, unsigned depth) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  if (c && c->getBitWidth() < 64) {
    Affine a;
    a.constant = static_cast<int64_t>(c->getZExtValue());
    return a;
  }
  // The flag, or the operands' largest values (`t + s` of unsigneds, t < 1024 and s <= blockDim.x): what
  // largest() bounds cannot wrap.
  auto* op = llvm::dyn_cast<llvm::OverflowingBinaryOperator>(v);
  unsigned opcode = op ? op->getOpcode() : 0;
  std::map<const llvm::Value*, uint64_t> assumed;
  if (op && opcode != llvm::Instruction::Sub && depth <= 24 &&
      (op->hasNoUnsignedWrap() ||
       ((opcode == llvm::Instruction::Add || opcode == llvm::Instruction::Mul) && largest(v, assumed, 0)))) {
    std::optional<Affine> l = unsignedForm(op->getOperand(0), depth + 1), r = unsignedForm(op->getOperand(1), depth + 1);
    if (std::optional<Affine> a = l && r ? combined(opcode, *l, *r) : std::nullopt) return a;
  }
  if (sregOf(v) != llvm::Intrinsic::not_intrinsic || knownNonNegative(v, dl_)) return of(v, depth + 1);
  return std::nullopt;
}

// l `opcode` r (add, sub, mul or shl) where that is a sum of leaves again: a product needs a constant side.
std::optional<Affine> OffsetForm::combined(unsigned opcode, const Affine& l, const Affine& r) {
  Affine a;
  switch (opcode) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
      a = l;
      a.add(r, opcode == llvm::Instruction::Add ? 1 : -1);
      return a;
    case llvm::Instruction::Mul:
      if (!r.isConstant() && !l.isConstant()) return std::nullopt;
      a.add(r.isConstant() ? l : r, r.isConstant() ? r.constant : l.constant);
      return a;
    case llvm::Instruction::Shl:
      if (!r.isConstant() || r.constant < 0 || r.constant > 32) return std::nullopt;
      a.add(l, int64_t{1} << r.constant);
      return a;
    default:
      return std::nullopt;
  }
}

Affine OffsetForm::arithmetic(llvm::Operator* op, unsigned depth) {
  if (!exact(op)) return leaf(op);
  std::optional<Affine> a = combined(op->getOpcode(), of(op->getOperand(0), depth + 1), of(op->getOperand(1), depth + 1));
  return a ? *a : leaf(op);
}

bool rebuildable(const llvm::Value* v) {
  return v->getType()->isIntegerTy() && v->getType()->getIntegerBitWidth() <= 32 &&
         (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::ConstantInt>(v) || uniformSreg(sregOf(v)));
}

llvm::Value* oneRowOfThreads(llvm::IRBuilder<>& b) {
  auto dim = [&](llvm::Intrinsic::ID id) { return b.CreateIntrinsic(b.getInt32Ty(), id, {}); };
  return b.CreateAnd(b.CreateICmpEQ(dim(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y), b.getInt32(1)),
                     b.CreateICmpEQ(dim(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z), b.getInt32(1)));
}

llvm::Value* rebuild(llvm::IRBuilder<>& b, llvm::Value* v) {
  if (unsigned id = sregOf(v); id != llvm::Intrinsic::not_intrinsic)
    return b.CreateIntrinsic(v->getType(), static_cast<llvm::Intrinsic::ID>(id), {});
  return v;
}

}  // namespace td
