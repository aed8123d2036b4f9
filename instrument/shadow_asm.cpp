// Shadows through the inline PTX of the catalogue (instrument/ptx_catalogue): the CUDA SDK's half and
// bfloat16 helpers (one instruction on 16-bit registers each) and mma.sync on 16-bit inputs.
#include "instrument/function_shadows.h"

namespace td::shadows {

void FunctionShadows::asmShadow(llvm::CallInst& call, llvm::InlineAsm& ia) {
  std::optional<PtxStatement> st = parsePtx(ia.getAsmString());
  if (st && st->op == PtxOp::Mma) return mmaShadow(call, *st);
  if (!st || (st->op != PtxOp::HalfScalar && st->op != PtxOp::CvtPack)) return;  // others start fresh
  auto arg = [&](int n) { return call.getArgOperand(static_cast<unsigned>(n - 1)); };
  llvm::Type* f16 = llvm::Type::getHalfTy(ctx_);
  llvm::Type* bf16 = llvm::Type::getBFloatTy(ctx_);
  auto pairOf = [](llvm::Type* h) { return llvm::FixedVectorType::get(h, 2); };
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, &call);
  auto floatShadow = [&](llvm::Value* v) {  // an "f" operand's shadow, or a fresh one from its bits
    return wideOf(v->getType()) ? shadowOf(v) : b.CreateFPExt(b.CreateBitCast(v, b.getFloatTy()), b.getDoubleTy());
  };
  auto result = [&](llvm::Value* s, llvm::Type* t, const std::string& op, std::vector<llvm::Value*> operands) {
    packed_[&call] = {s, t};
    if (!op.empty()) checkBirth(call, viewOf(&call, t), s, op, operands);
  };
  if (st->op == PtxOp::CvtPack) {  // cvt.rn.{f16,bf16}x2.f32 d, hi, lo
    llvm::Type* h = st->k == 1 ? bf16 : f16;
    llvm::Type* w = wideOf(h);
    llvm::Value* s = llvm::UndefValue::get(llvm::FixedVectorType::get(w, 2));
    s = b.CreateInsertElement(s, convert(b, floatShadow(arg(st->mode)), w), b.getInt32(0));
    s = b.CreateInsertElement(s, convert(b, floatShadow(arg(st->valueOperand)), w), b.getInt32(1));
    return result(s, pairOf(h), "conversion to " + std::string(typeName(h)) + " pair", {});
  }
  const HalfOperation& h = st->half;
  switch (static_cast<HalfScalarKind>(st->mode)) {
    case HalfScalarKind::WidenF16:
    case HalfScalarKind::WidenBF16: {
      if (!wideOf(call.getType())) return;
      llvm::Type* t = st->mode == static_cast<int>(HalfScalarKind::WidenF16) ? f16 : bf16;
      llvm::Value* src = arg(1);
      llvm::Value* s = src->getType()->getPrimitiveSizeInBits() == 32 && !wideOf(src->getType())
                           ? b.CreateExtractElement(halfShadow(src, pairOf(t)), b.getInt32(st->count))
                           : halfShadow(src, t);
      shadow_[&call] = convert(b, s, wideOf(call.getType()));
      return;
    }
    case HalfScalarKind::NarrowF16:
    case HalfScalarKind::NarrowBF16: {
      llvm::Type* t = st->mode == static_cast<int>(HalfScalarKind::NarrowF16) ? f16 : bf16;
      return result(convert(b, floatShadow(arg(1)), wideOf(t)), t, std::string("conversion to ") + typeName(t), {});
    }
    case HalfScalarKind::FlipSign:
    case HalfScalarKind::ClearSign: {
      llvm::Type* t = h.bf16 ? bf16 : f16;
      if (st->count == 2) t = pairOf(t);
      llvm::Value* x = halfShadow(arg(1), t);
      bool flip = st->mode == static_cast<int>(HalfScalarKind::FlipSign);
      return result(flip ? b.CreateFNeg(x) : b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), t, "", {});
    }
    case HalfScalarKind::Arith: {
      llvm::Type* t = h.bf16 ? bf16 : f16;
      if (h.lanes == 2) t = pairOf(t);
      llvm::Value* x = halfShadow(arg(h.src[0]), t);
      llvm::Value* y = halfShadow(arg(h.src[1]), t);
      llvm::Value* r = nullptr;
      const char* op = "";
      switch (h.arith) {
        case HalfArith::Add: r = b.CreateFAdd(x, y), op = "add"; break;
        case HalfArith::Sub: r = b.CreateFSub(x, y), op = "sub"; break;
        case HalfArith::Mul: r = b.CreateFMul(x, y), op = "mul"; break;
        case HalfArith::Fma:
          r = b.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, halfShadow(arg(h.src[2]), t)}), op = "fma";
          break;
        case HalfArith::Min: r = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, x, y), op = "min"; break;
        case HalfArith::Max: r = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, y), op = "max"; break;
      }
      llvm::Value* zero = llvm::ConstantFP::get(r->getType(), 0.0);
      if (h.saturate)
        r = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, r, zero),
                                    llvm::ConstantFP::get(r->getType(), 1.0));
      if (h.relu) r = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, r, zero);
      return result(r, t, op, {viewOf(arg(h.src[0]), t), viewOf(arg(h.src[1]), t)});
    }
    case HalfScalarKind::Pack: {  // mov.b32 d, {lo, hi}; an operand number < 0 is a literal zero half
      llvm::Type* e = f16;
      for (int n : {st->valueOperand, st->addrOperand})
        if (n > 0)
          if (auto it = packed_.find(arg(n)); it != packed_.end() && !it->second.type->isVectorTy()) e = it->second.type;
      llvm::Type* w = wideOf(e);
      llvm::Value* s = llvm::UndefValue::get(llvm::FixedVectorType::get(w, 2));
      int k = 0;
      for (int n : {st->valueOperand, st->addrOperand})
        s = b.CreateInsertElement(s, n > 0 ? halfShadow(arg(n), e) : llvm::ConstantFP::get(w, 0.0), b.getInt32(k++));
      return result(s, pairOf(e), "", {});
    }
    default:
      return;  // comparisons, integer conversions: no FP result to shadow
  }
}

void FunctionShadows::mmaShadow(llvm::CallInst& call, const PtxStatement& st) {
  if (st.integer || st.fp8 || (st.type != MmaType::F16 && st.type != MmaType::BF16)) return;  // fresh shadows
  unsigned aRegs = static_cast<unsigned>(st.k) / 4, bRegs = static_cast<unsigned>(st.k) / 8, cRegs = st.f16Accum ? 2 : 4;
  auto* results = llvm::dyn_cast<llvm::StructType>(call.getType());
  if (call.arg_size() < aRegs + bRegs + cRegs || !results || results->getNumElements() != cRegs) return;
  llvm::Type* in = st.type == MmaType::BF16 ? llvm::Type::getBFloatTy(ctx_) : llvm::Type::getHalfTy(ctx_);
  llvm::Type* inPair = llvm::FixedVectorType::get(in, 2);
  llvm::Type* accPair = llvm::FixedVectorType::get(llvm::Type::getHalfTy(ctx_), 2);  // f16 accumulators
  llvm::IRBuilder<> entry(&*f_.getEntryBlock().getFirstInsertionPt());
  llvm::Type* dbl = entry.getDoubleTy();
  auto slots = [&](unsigned n) { return entry.CreateAlloca(llvm::ArrayType::get(dbl, n)); };
  llvm::Value *a = slots(8), *bf = slots(4), *c = slots(4), *d = slots(4);
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, &call);
  auto put = [&](llvm::Value* to, unsigned at, llvm::Value* s) { b.CreateStore(convert(b, s, dbl), b.CreateConstGEP1_32(dbl, to, at)); };
  auto putPair = [&](llvm::Value* to, unsigned reg, llvm::Value* pair) {
    for (unsigned h = 0; h < 2; ++h) put(to, 2 * reg + h, b.CreateExtractElement(pair, b.getInt32(h)));
  };
  for (unsigned r = 0; r < aRegs; ++r) putPair(a, r, halfShadow(call.getArgOperand(r), inPair));
  for (unsigned r = 0; r < bRegs; ++r) putPair(bf, r, halfShadow(call.getArgOperand(aRegs + r), inPair));
  for (unsigned r = 0; r < cRegs; ++r) {
    llvm::Value* v = call.getArgOperand(aRegs + bRegs + r);
    if (st.f16Accum) putPair(c, r, halfShadow(v, accPair));
    else put(c, r, wideOf(v->getType()) ? shadowOf(v) : b.CreateFPExt(b.CreateBitCast(v, b.getFloatTy()), dbl));
  }
  llvm::FunctionCallee hook = m_.getOrInsertFunction("__td_num_mma", b.getVoidTy(), b.getInt32Ty(), b.getPtrTy(),
                                                     b.getPtrTy(), b.getPtrTy(), b.getPtrTy());
  setHookLocation(b, &call);
  b.CreateCall(hook, {b.getInt32(static_cast<unsigned>(st.k)), a, bf, c, d});
  auto got = [&](unsigned e) { return b.CreateLoad(dbl, b.CreateConstGEP1_32(dbl, d, e)); };
  std::vector<Packed>& out = results_[&call];
  for (unsigned r = 0; r < cRegs; ++r) {
    if (!st.f16Accum) {
      out.push_back({got(r), b.getFloatTy()});
      continue;
    }
    llvm::Type* w = wideOf(accPair);
    llvm::Value* pair = llvm::UndefValue::get(w);
    for (unsigned h = 0; h < 2; ++h) pair = b.CreateInsertElement(pair, convert(b, got(2 * r + h), w->getScalarType()), b.getInt32(h));
    out.push_back({pair, accPair});
  }
}

}  // namespace td::shadows
