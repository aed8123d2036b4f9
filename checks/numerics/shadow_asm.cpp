// Shadows through the inline PTX of the catalogue (instrument/ptx_catalogue): the CUDA SDK's half and
// bfloat16 helpers (one instruction on 16-bit registers each) and mma.sync on 16-bit inputs.
#include "checks/numerics/function_shadows.h"
#include "instrument/hook_functions.h"

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
      llvm::Value* s = convert(b, floatShadow(arg(1)), wideOf(t));
      std::string op = std::string("conversion to ") + typeName(t);
      if (st->count == 2) return result(b.CreateVectorSplat(2, s), pairOf(t), op, {});  // into both halves
      return result(s, t, op, {});
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
  llvm::Type* accPair = llvm::FixedVectorType::get(llvm::Type::getHalfTy(ctx_), 2);  // f16 accumulators
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, &call);
  // C's shadows, element e = register e / 2, half e % 2 (f16) or register e (f32): in the shadow type of D.
  std::vector<llvm::Value*> c;
  for (unsigned r = 0; r < cRegs; ++r) {
    llvm::Value* v = call.getArgOperand(aRegs + bRegs + r);
    if (st.f16Accum) {
      llvm::Value* pair = halfShadow(v, accPair);
      for (unsigned h = 0; h < 2; ++h) c.push_back(b.CreateExtractElement(pair, b.getInt32(h)));
    } else {
      c.push_back(wideOf(v->getType()) ? shadowOf(v) : b.CreateFPExt(b.CreateBitCast(v, b.getFloatTy()), b.getDoubleTy()));
    }
  }
  bool inputsExact = true;  // A's and B's shadows are their values: the products are the tensor core's
  for (unsigned k = 0; k < aRegs + bRegs; ++k) inputsExact &= !shadowless_.mayCarryShadow(call.getArgOperand(k));
  std::vector<llvm::Value*> d = inputsExact ? mmaOfExactInputs(call, st, c, b) : mmaInDouble(call, st, c, b);
  std::vector<Packed>& out = results_[&call];
  for (unsigned r = 0; r < cRegs; ++r) {
    if (!st.f16Accum) {
      out.push_back({d[r], b.getFloatTy()});
      continue;
    }
    llvm::Type* w = wideOf(accPair);
    llvm::Value* pair = llvm::UndefValue::get(w);
    for (unsigned h = 0; h < 2; ++h) pair = b.CreateInsertElement(pair, convert(b, d[2 * r + h], w->getScalarType()), b.getInt32(h));
    out.push_back({pair, accPair});
  }
}

// Inputs whose shadows are their values (loaded, ldmatrix'd, moved): the products are the tensor core's, so
// D's shadow is one more mma.sync with f32 accumulators, not a software one. fp32 shadows (f16 accumulators)
// accumulate in it directly, C's shadow as its C. fp64 shadows (f32 accumulators) get its f32 sum of the new
// products added; where C is the result of such an mma of the same block (a k-loop unrolled), the products
// of up to kMmaChain of them are summed in f32 before they are added: one widening and one double add per
// element for the chain, not for each mma.
std::vector<llvm::Value*> FunctionShadows::mmaOfExactInputs(llvm::CallInst& call, const PtxStatement& st,
                                                            const std::vector<llvm::Value*>& c, llvm::IRBuilder<>& b) {
  constexpr unsigned kMmaChain = 4;  // k-steps whose products meet in f32: 4 x 16 products at most
  unsigned inputs = static_cast<unsigned>(st.k) / 4 + static_cast<unsigned>(st.k) / 8;
  const char* type = st.type == MmaType::BF16 ? "bf16" : "f16";
  std::string text = fmt::format("mma.sync.aligned.m16n8k{}.row.col.f32.{}.{}.f32 {{$0,$1,$2,$3}}, {{", st.k, type, type);
  std::string constraints = "=f,=f,=f,=f";
  std::vector<llvm::Value*> args;
  std::vector<llvm::Type*> types;
  for (unsigned k = 0; k < inputs; ++k) {
    unsigned regs = static_cast<unsigned>(st.k) / 4;
    text += fmt::format("{}${}", k == 0 || k == regs ? "" : ",", 4 + k);
    if (k + 1 == regs) text += "}, {";
    constraints += ",r";
    args.push_back(b.CreateZExtOrTrunc(call.getArgOperand(k), b.getInt32Ty()));
    types.push_back(b.getInt32Ty());
  }
  text += fmt::format("}}, {{${},${},${},${}}};", 4 + inputs, 5 + inputs, 6 + inputs, 7 + inputs);
  llvm::Type* f32 = b.getFloatTy();
  bool wide = !c[0]->getType()->isFloatTy();
  // fp64: C as a double base and the f32 products still to add to it
  std::vector<llvm::Value*> base(c), partial(4, llvm::ConstantFP::get(f32, 0.0));
  unsigned chain = 1;
  if (wide) {  // C continues a chain when each of its elements ends one of this block, all equally long
    std::vector<const MmaChain*> links;
    for (unsigned e = 0; e < 4; ++e) {
      auto it = mmaChains_.find(c[e]);
      const MmaChain* link = it == mmaChains_.end() ? nullptr : &it->second;
      if (!link || link->block != call.getParent() || link->length >= kMmaChain ||
          (!links.empty() && link->length != links.front()->length))
        break;
      links.push_back(link);
    }
    if (links.size() == 4)
      for (unsigned e = 0; e < 4; ++e) base[e] = links[e]->base, partial[e] = links[e]->partial, chain = links[e]->length + 1;
  }
  for (unsigned k = 0; k < 4; ++k) {
    constraints += ",f";
    args.push_back(wide ? partial[k] : c[k]);
    types.push_back(f32);
  }
  auto* fnType = llvm::FunctionType::get(llvm::StructType::get(ctx_, {f32, f32, f32, f32}), types, false);
  llvm::CallInst* products = b.CreateCall(llvm::InlineAsm::get(fnType, text, constraints, true), args);
  products->addFnAttr(llvm::Attribute::Convergent);
  std::vector<llvm::Value*> d;
  for (unsigned e = 0; e < 4; ++e) {
    llvm::Value* sum = b.CreateExtractValue(products, e);
    if (!wide) {
      d.push_back(sum);
      continue;
    }
    d.push_back(b.CreateFAdd(base[e], convert(b, sum, base[e]->getType())));
    mmaChains_[d.back()] = {call.getParent(), base[e], sum, chain};
  }
  return d;
}

// Inputs with shadows of their own: every lane leaves its A and B shadows in a slot, and the warp sums each
// D element's products in double (numerics_runtime.cu, __td_num_mma).
std::vector<llvm::Value*> FunctionShadows::mmaInDouble(llvm::CallInst& call, const PtxStatement& st,
                                                       const std::vector<llvm::Value*>& c, llvm::IRBuilder<>& b) {
  unsigned aRegs = static_cast<unsigned>(st.k) / 4, bRegs = static_cast<unsigned>(st.k) / 8;
  llvm::Type* in = st.type == MmaType::BF16 ? llvm::Type::getBFloatTy(ctx_) : llvm::Type::getHalfTy(ctx_);
  llvm::Type* inPair = llvm::FixedVectorType::get(in, 2);
  llvm::IRBuilder<> entry(&*f_.getEntryBlock().getFirstInsertionPt());
  llvm::Type* dbl = entry.getDoubleTy();
  auto slots = [&](unsigned n) { return entry.CreateAlloca(llvm::ArrayType::get(dbl, n)); };
  llvm::Value *a = slots(8), *bf = slots(4), *cs = slots(4), *ds = slots(4);
  auto put = [&](llvm::Value* to, unsigned at, llvm::Value* s) { b.CreateStore(convert(b, s, dbl), b.CreateConstGEP1_32(dbl, to, at)); };
  auto putPair = [&](llvm::Value* to, unsigned reg, llvm::Value* pair) {
    for (unsigned h = 0; h < 2; ++h) put(to, 2 * reg + h, b.CreateExtractElement(pair, b.getInt32(h)));
  };
  for (unsigned r = 0; r < aRegs; ++r) putPair(a, r, halfShadow(call.getArgOperand(r), inPair));
  for (unsigned r = 0; r < bRegs; ++r) putPair(bf, r, halfShadow(call.getArgOperand(aRegs + r), inPair));
  for (unsigned e = 0; e < 4; ++e) put(cs, e, c[e]);
  llvm::FunctionCallee hook = hookFunction(m_, Hook::num_mma);
  setHookLocation(b, &call);
  b.CreateCall(hook, {b.getInt32(static_cast<unsigned>(st.k)), genericPointer(b, a), genericPointer(b, bf),
                      genericPointer(b, cs), genericPointer(b, ds)});
  std::vector<llvm::Value*> d;
  for (unsigned e = 0; e < 4; ++e)
    d.push_back(convert(b, b.CreateLoad(dbl, b.CreateConstGEP1_32(dbl, ds, e)), c[e]->getType()));
  return d;
}

}  // namespace td::shadows
