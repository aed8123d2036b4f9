#include "checks/race/disjoint_writes.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PatternMatch.h>

#include "checks/race/barrier_intervals.h"

namespace td {

namespace {

// What a leaf of an offset is to the threads of one block.
enum class Leaf {
  Thread,   // threadIdx.x
  Uniform,  // the same value for every thread of the block: an argument, blockIdx, blockDim, a constant address
  Varying,  // anything else (another thread index, a load, a division of a thread-dependent value)
};

// An integer as a sum of leaves times constant coefficients, plus a constant: exact where the arithmetic
// does not wrap (the flags that say so are required under extensions). A division stays a leaf of its own,
// so `64 * (i / 32) + 2 * (i - 32 * (i / 32))` comes out as 2 * i.
struct Affine {
  int64_t constant = 0;
  llvm::MapVector<llvm::Value*, int64_t> terms;
  bool overflowed = false;  // a coefficient past 64 bits: nothing is known

  void add(const Affine& o, int64_t scale) {
    overflowed |= o.overflowed || addScaled(constant, o.constant, scale);
    for (auto& [v, c] : o.terms) overflowed |= addScaled(terms[v], c, scale);
  }
  static bool addScaled(int64_t& into, int64_t c, int64_t scale) {
    int64_t product = 0;
    return __builtin_mul_overflow(c, scale, &product) || __builtin_add_overflow(into, product, &into);
  }
  bool isConstant() const {
    for (auto& [v, c] : terms)
      if (c) return false;
    return true;
  }
};

unsigned sregOf(const llvm::Value* v) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(v);
  llvm::Function* f = call ? call->getCalledFunction() : nullptr;
  return f ? f->getIntrinsicID() : llvm::Intrinsic::not_intrinsic;
}

bool isUniform(const llvm::Value* v, unsigned depth);

// blockDim, blockIdx, gridDim: one value for the block.
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

// The same for every thread of the block: arguments, constants, blockIdx and blockDim, and arithmetic of
// them (`blockIdx.y * 64` without its no-wrap flags stays one leaf; it is uniform all the same).
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

class OffsetForm {
 public:
  explicit OffsetForm(const llvm::DataLayout& dl) : dl_(dl) {}

  Affine of(llvm::Value* v, unsigned depth = 0) {
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
      case llvm::Instruction::ZExt:  // of a thread or block index (below 2^31), or of what is known not negative
        if (sregOf(op->getOperand(0)) == llvm::Intrinsic::not_intrinsic && !llvm::isKnownNonNegative(op->getOperand(0), dl_))
          return leaf(v);
        return of(op->getOperand(0), depth + 1);
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

 private:
  // Narrower than the address, the arithmetic must not wrap: the flags say so, or it is a remainder's
  // expansion, which cannot (`(x / C) * C` and `x - (x / C) * C`, as the optimiser writes `x % C`).
  bool exact(llvm::Operator* op) const {
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

  static llvm::Value* unfrozen(llvm::Value* v) {
    auto* f = llvm::dyn_cast<llvm::FreezeInst>(v);
    return f ? f->getOperand(0) : v;
  }

  // x where `v` is (x / C) * C (a division by C, or a shift by log2 C, times C); else null.
  static llvm::Value* quotientTimesDivisor(llvm::Value* v) {
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

  Affine arithmetic(llvm::Operator* op, unsigned depth) {
    if (!exact(op)) return leaf(op);
    Affine l = of(op->getOperand(0), depth + 1), r = of(op->getOperand(1), depth + 1), a;
    switch (op->getOpcode()) {
      case llvm::Instruction::Add:
        a = l;
        a.add(r, 1);
        return a;
      case llvm::Instruction::Sub:
        a = l;
        a.add(r, -1);
        return a;
      case llvm::Instruction::Mul:
        if (!r.isConstant() && !l.isConstant()) return leaf(op);
        a.add(r.isConstant() ? l : r, r.isConstant() ? r.constant : l.constant);
        return a;
      default:  // Shl
        if (!r.isConstant() || r.constant < 0 || r.constant > 32) return leaf(op);
        a.add(l, int64_t{1} << r.constant);
        return a;
    }
  }

  static Affine leaf(llvm::Value* v) {
    Affine a;
    a.terms[v] = 1;
    return a;
  }

  const llvm::DataLayout& dl_;
};

// A uniform leaf that can be had anywhere in the kernel, at most 32 bits: an argument, a constant, blockDim,
// blockIdx or gridDim (read again).
bool rebuildable(const llvm::Value* v) {
  return v->getType()->isIntegerTy() && v->getType()->getIntegerBitWidth() <= 32 &&
         (llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::ConstantInt>(v) || uniformSreg(sregOf(v)));
}

llvm::Value* rebuild(llvm::IRBuilder<>& b, llvm::Value* v) {
  if (unsigned id = sregOf(v); id != llvm::Intrinsic::not_intrinsic)
    return b.CreateIntrinsic(v->getType(), static_cast<llvm::Intrinsic::ID>(id), {});
  return v;
}

}  // namespace

DisjointWrites::DisjointWrites(llvm::Function& f) : dt_(f), li_(dt_) {}

llvm::Value* DisjointWrites::condition(llvm::StoreInst& store, llvm::Value* ptr, uint64_t size) {
  if (!store.isSimple() || size == 0) return nullptr;
  const llvm::DataLayout& dl = store.getModule()->getDataLayout();
  OffsetForm form(dl);
  Affine offset = form.of(ptr);
  if (offset.overflowed) return nullptr;
  llvm::Loop* loop = li_.getLoopFor(store.getParent());
  for (llvm::Loop* outer = loop ? loop->getParentLoop() : nullptr; outer; outer = outer->getParentLoop())
    if (!holdsFullBlockBarrier(*outer)) return nullptr;
  // The innermost loop's counter: i = start + k * step, from its header phi.
  int64_t perStep = 0;  // the offset's coefficient of the counter
  Affine step;
  if (loop) {
    llvm::BasicBlock* preheader = loop->getLoopPredecessor();  // the one block entering it
    llvm::BasicBlock* latch = loop->getLoopLatch();
    llvm::PHINode* counter = nullptr;
    for (auto& [v, c] : offset.terms) {
      auto* phi = llvm::dyn_cast<llvm::PHINode>(v);
      if (!c || !phi || phi->getParent() != loop->getHeader()) continue;
      if (counter) return nullptr;  // two counters
      counter = phi;
    }
    if (llvm::PHINode* phi = counter) {
      if (!preheader || !latch) return nullptr;  // no plain loop
      Affine start = form.of(phi->getIncomingValueForBlock(preheader));
      // i + step or i - step: the counter's own increment, which the loop's bound keeps from wrapping.
      auto* next = llvm::dyn_cast<llvm::BinaryOperator>(phi->getIncomingValueForBlock(latch));
      if (!next || (next->getOpcode() != llvm::Instruction::Add && next->getOpcode() != llvm::Instruction::Sub))
        return nullptr;
      bool sub = next->getOpcode() == llvm::Instruction::Sub;
      if (next->getOperand(0) != phi && (sub || next->getOperand(1) != phi)) return nullptr;
      step.add(form.of(next->getOperand(next->getOperand(0) == phi ? 1 : 0)), sub ? -1 : 1);
      perStep = offset.terms[phi];
      offset.terms[phi] = 0;
      offset.add(start, perStep);
      if (offset.overflowed || step.overflowed) return nullptr;
    }
  }
  // The run-time arithmetic below stays inside 64 bits: small coefficients, a few 32-bit leaves.
  constexpr int64_t kCoefficient = int64_t{1} << 12, kConstant = int64_t{1} << 40;
  auto small = [&](int64_t c, int64_t limit) { return c > -limit && c < limit; };
  int64_t perThread = 0;
  for (auto& [v, c] : offset.terms) {
    if (!c) continue;
    Leaf kind = leafKind(v);
    if (kind == Leaf::Varying) return nullptr;
    if (kind == Leaf::Thread && Affine::addScaled(perThread, c, 1)) return nullptr;
  }
  unsigned stepLeaves = 0;
  for (auto& [v, c] : step.terms) {
    if (!c) continue;
    if (!rebuildable(v) || !small(c, kCoefficient) || ++stepLeaves > 4) return nullptr;
  }
  if (!small(perThread, kCoefficient) || !small(perStep, kCoefficient) || !small(step.constant, kConstant))
    return nullptr;
  if (perThread == 0 || static_cast<uint64_t>(perThread < 0 ? -perThread : perThread) < size) return nullptr;

  // blockDim.y == blockDim.z == 1, and |perStep * step| >= blockDim.x * |perThread|.
  llvm::IRBuilder<> b(&store);
  llvm::Type* i64 = b.getInt64Ty();
  auto dim = [&](llvm::Intrinsic::ID id) { return b.CreateZExt(b.CreateIntrinsic(b.getInt32Ty(), id, {}), i64); };
  llvm::Value* flat = b.CreateAnd(b.CreateICmpEQ(dim(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y), b.getInt64(1)),
                                  b.CreateICmpEQ(dim(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z), b.getInt64(1)));
  if (!perStep) return flat;
  llvm::Value* stride = b.getInt64(step.constant);
  for (auto& [v, c] : step.terms) {
    if (!c) continue;
    llvm::Value* leafValue = rebuild(b, v);
    stride = b.CreateAdd(stride, b.CreateMul(b.CreateSExt(leafValue, i64), b.getInt64(c)));
  }
  stride = b.CreateMul(stride, b.getInt64(perStep));
  llvm::Value* magnitude = b.CreateSelect(b.CreateICmpSLT(stride, b.getInt64(0)), b.CreateNeg(stride), stride);
  llvm::Value* span = b.CreateMul(dim(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                                  b.getInt64(perThread < 0 ? -perThread : perThread));
  return b.CreateAnd(flat, b.CreateICmpUGE(magnitude, span));
}

}  // namespace td
