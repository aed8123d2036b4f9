#include "runtime/cpu/half_lowering.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

namespace td::cpu {
namespace {

class HalfLowering {
 public:
  HalfLowering(llvm::IRBuilder<>& b, llvm::CallInst& call, const PtxStatement& st)
      : b_(b), call_(call), st_(st), half_(st.half), i16_(b.getInt16Ty()), i32_(b.getInt32Ty()) {}

  llvm::Value* lower() {
    llvm::Value* a = call_.arg_size() ? call_.getArgOperand(0) : nullptr;
    switch (static_cast<HalfScalarKind>(st_.mode)) {
      case HalfScalarKind::WidenF16:
      case HalfScalarKind::WidenBF16: {
        llvm::Type* narrow = st_.mode == static_cast<int>(HalfScalarKind::WidenF16) ? b_.getHalfTy() : b_.getBFloatTy();
        llvm::Value* h = b_.CreateBitCast(halfBits(1, st_.count), narrow);  // count 1: the high half of a pair
        return result(b_.CreateFPExt(h, b_.getFloatTy()));
      }
      case HalfScalarKind::NarrowF16:
      case HalfScalarKind::NarrowBF16: {
        llvm::Type* narrow = st_.mode == static_cast<int>(HalfScalarKind::NarrowF16) ? b_.getHalfTy() : b_.getBFloatTy();
        llvm::Value* f = a->getType()->isFloatingPointTy() ? a : b_.CreateBitCast(a, b_.getFloatTy());
        llvm::Value* h = b_.CreateBitCast(b_.CreateFPTrunc(f, narrow), i16_);
        if (st_.count != 2) return result(h);
        llvm::Value* lane = b_.CreateZExt(h, i32_);
        return result(b_.CreateOr(lane, b_.CreateShl(lane, 16)));
      }
      case HalfScalarKind::FlipSign:
      case HalfScalarKind::ClearSign: {
        llvm::Value* v = bits(a);
        uint64_t signs = st_.count == 2 ? 0x80008000u : 0x8000u;
        llvm::Value* mask = llvm::ConstantInt::get(v->getType(), signs);
        bool flip = st_.mode == static_cast<int>(HalfScalarKind::FlipSign);
        return result(flip ? b_.CreateXor(v, mask) : b_.CreateAnd(v, b_.CreateNot(mask)));
      }
      case HalfScalarKind::Pack: {
        auto part = [&](int operand) -> llvm::Value* {
          return operand < 0 ? b_.getInt32(0) : b_.CreateZExt(halfBits(operand, 0), i32_);
        };
        return result(b_.CreateOr(part(st_.valueOperand), b_.CreateShl(part(st_.addrOperand), 16)));
      }
      case HalfScalarKind::Arith:
        return result(perLane([&](int lane) { return arithmetic(lane); }));
      case HalfScalarKind::Compare:
        if (half_.result == CompareResult::Float)  // 1.0f: the bit patterns of the f32 comparison's result
          return result(b_.CreateSelect(b_.CreateICmpNE(comparison(0), b_.getInt16(0)), b_.getInt32(0x3f800000),
                                        b_.getInt32(0)));
        return result(perLane([&](int lane) { return comparison(lane); }));
      case HalfScalarKind::IntToHalf: {  // exact in double up to 32 bits, then one rounding
        llvm::Value* i = b_.CreateZExtOrTrunc(bits(a), b_.getIntNTy(half_.intBits));
        llvm::Value* d = half_.intSigned ? b_.CreateSIToFP(i, b_.getDoubleTy()) : b_.CreateUIToFP(i, b_.getDoubleTy());
        return result(narrow(d));
      }
      case HalfScalarKind::HalfToInt: {
        llvm::Value* d = operand(1, 0);
        auto id = half_.rounding == 'n' ? llvm::Intrinsic::roundeven : half_.rounding == 'z' ? llvm::Intrinsic::trunc
                  : half_.rounding == 'm' ? llvm::Intrinsic::floor : llvm::Intrinsic::ceil;
        d = b_.CreateIntrinsic(id, {b_.getDoubleTy()}, {d});
        llvm::Type* it = b_.getIntNTy(half_.intBits);  // saturating, NaN to 0, as PTX's float-to-integer cvt
        auto sat = half_.intSigned ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
        return result(b_.CreateIntrinsic(sat, {it, b_.getDoubleTy()}, {d}));
      }
      case HalfScalarKind::Shuffle:
        return result(perLane([&](int lane) { return halfBits(half_.pick[lane] / 2, half_.pick[lane] % 2); }));
    }
    return nullptr;
  }

 private:
  llvm::Value* bits(llvm::Value* v) {  // an operand's bits as an integer of its width
    llvm::Type* t = v->getType();
    return t->isFloatingPointTy() ? b_.CreateBitCast(v, b_.getIntNTy(t->getPrimitiveSizeInBits())) : v;
  }
  llvm::Value* result(llvm::Value* v) {  // v's bits in the call's result type
    llvm::Type* rt = call_.getType();
    if (v->getType() == rt) return v;
    llvm::Value* i = b_.CreateZExtOrTrunc(bits(v), b_.getIntNTy(rt->getPrimitiveSizeInBits()));
    return rt->isFloatingPointTy() ? b_.CreateBitCast(i, rt) : i;
  }
  llvm::Type* halfType() { return half_.bf16 ? b_.getBFloatTy() : b_.getHalfTy(); }

  // Lane `lane` (0 low, 1 high) of operand $n: its 16 bits, and its value widened to double (exact).
  llvm::Value* halfBits(int n, int lane) {
    llvm::Value* word = b_.CreateZExtOrTrunc(bits(call_.getArgOperand(n - 1)), i32_);
    if (lane) word = b_.CreateLShr(word, 16);
    return b_.CreateTrunc(word, i16_);
  }
  llvm::Value* operand(int n, int lane) {
    return b_.CreateFPExt(b_.CreateBitCast(halfBits(n, lane), halfType()), b_.getDoubleTy());
  }
  // One rounding to the half type; a NaN result is the canonical one (0x7fff), as PTX writes it.
  llvm::Value* narrow(llvm::Value* d) {
    llvm::Value* h = b_.CreateBitCast(b_.CreateFPTrunc(d, halfType()), i16_);
    return b_.CreateSelect(isNaN(d), b_.getInt16(0x7fff), h);
  }
  llvm::Value* isNaN(llvm::Value* d) { return b_.CreateFCmpUNO(d, d); }
  llvm::Value* zero() { return llvm::ConstantFP::get(b_.getDoubleTy(), 0.0); }

  template <class F>
  llvm::Value* perLane(F f) {
    llvm::Value* lo = b_.CreateZExt(f(0), i32_);
    if (half_.lanes == 1) return b_.CreateTrunc(lo, i16_);
    return b_.CreateOr(lo, b_.CreateShl(b_.CreateZExt(f(1), i32_), 16));
  }

  llvm::Value* arithmetic(int lane) {
    llvm::Value* x = operand(half_.src[0], lane);
    llvm::Value* y = operand(half_.src[1], lane);
    llvm::Value* r = nullptr;
    switch (half_.arith) {
      case HalfArith::Add: r = b_.CreateFAdd(x, y); break;
      case HalfArith::Sub: r = b_.CreateFSub(x, y); break;
      case HalfArith::Mul: r = b_.CreateFMul(x, y); break;
      case HalfArith::Fma:
        r = b_.CreateIntrinsic(llvm::Intrinsic::fma, {b_.getDoubleTy()}, {x, y, operand(half_.src[2], lane)});
        break;
      case HalfArith::Min:
      case HalfArith::Max: r = minMax(x, y, half_.arith == HalfArith::Min); break;
    }
    if (half_.saturate) {  // [0, 1]; NaN to +0
      llvm::Value* one = llvm::ConstantFP::get(b_.getDoubleTy(), 1.0);
      llvm::Value* low = b_.CreateSelect(b_.CreateFCmpOLT(r, zero()), zero(), r);
      r = b_.CreateSelect(isNaN(r), zero(), b_.CreateSelect(b_.CreateFCmpOGT(low, one), one, low));
    }
    if (half_.relu) r = b_.CreateSelect(b_.CreateFCmpOLT(r, zero()), zero(), r);
    return narrow(r);
  }

  // PTX min/max: a NaN operand gives the other one (both NaN: NaN), .NaN makes any NaN win; -0 < +0.
  llvm::Value* minMax(llvm::Value* x, llvm::Value* y, bool min) {
    llvm::Value* xFirst = min ? b_.CreateFCmpOLT(x, y) : b_.CreateFCmpOGT(x, y);
    llvm::Value* r = b_.CreateSelect(xFirst, x, y);
    llvm::Value* xNegative = b_.CreateICmpSLT(b_.CreateBitCast(x, b_.getInt64Ty()), b_.getInt64(0));
    llvm::Value* equalZeros = b_.CreateAnd(b_.CreateFCmpOEQ(x, y), b_.CreateFCmpOEQ(x, zero()));
    r = b_.CreateSelect(equalZeros, b_.CreateSelect(xNegative, min ? x : y, min ? y : x), r);
    llvm::Value* nan = llvm::ConstantFP::getNaN(b_.getDoubleTy());
    if (half_.propagateNaN) return b_.CreateSelect(b_.CreateOr(isNaN(x), isNaN(y)), nan, r);
    return b_.CreateSelect(isNaN(x), y, b_.CreateSelect(isNaN(y), x, r));
  }

  llvm::Value* comparison(int lane) {
    using P = llvm::CmpInst::Predicate;
    static const P ordered[] = {P::FCMP_OEQ, P::FCMP_ONE, P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT, P::FCMP_OGE,
                                P::FCMP_ORD, P::FCMP_UNO};
    static const P unordered[] = {P::FCMP_UEQ, P::FCMP_UNE, P::FCMP_ULT, P::FCMP_ULE, P::FCMP_UGT, P::FCMP_UGE};
    int c = static_cast<int>(half_.compare);
    P pred = half_.unordered && c < 6 ? unordered[c] : ordered[c];
    llvm::Value* t = b_.CreateFCmp(pred, operand(half_.src[0], lane), operand(half_.src[1], lane));
    uint16_t yes = half_.result == CompareResult::Bool ? 1 : half_.result == CompareResult::Mask ? 0xffff
                   : half_.bf16                        ? 0x3f80  // 1.0 in bf16
                                                       : 0x3c00;  // 1.0 in f16
    return b_.CreateSelect(t, b_.getInt16(yes), b_.getInt16(0));
  }

  llvm::IRBuilder<>& b_;
  llvm::CallInst& call_;
  const PtxStatement& st_;
  const HalfOperation& half_;
  llvm::Type* i16_;
  llvm::Type* i32_;
};

}  // namespace

llvm::Value* lowerHalfScalar(llvm::IRBuilder<>& b, llvm::CallInst& call, const PtxStatement& st) {
  return HalfLowering(b, call, st).lower();
}

}  // namespace td::cpu
