#include "checks/numerics/function_shadows.h"

namespace td::shadows {

void FunctionShadows::run() {
  std::vector<llvm::Instruction*> order;
  llvm::ReversePostOrderTraversal<llvm::Function*> rpo(&f_);
  for (llvm::BasicBlock* bb : rpo)
    for (llvm::Instruction& i : *bb) order.push_back(&i);
  for (llvm::Instruction* i : order)
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(i); phi && wideOf(phi->getType())) {
      llvm::PHINode* s = llvm::PHINode::Create(wideOf(phi->getType()), phi->getNumIncomingValues(), "", phi->getIterator());
      shadow_[phi] = s;
      phis_.push_back({phi, s});
    }
  for (llvm::Instruction* i : order) visit(*i);
  for (auto [phi, s] : phis_)
    for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
      s->addIncoming(shadowOf(phi->getIncomingValue(k)), phi->getIncomingBlock(k));
  checkBirths();
  watchLoops();
  visitStores();
  for (size_t n = 0; n < bitsPhis_.size(); ++n) {  // filling one may add another
    auto [phi, s, t] = bitsPhis_[n];
    for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
      s->addIncoming(halfShadow(phi->getIncomingValue(k), t), phi->getIncomingBlock(k));
  }
  promoteLoopState();  // once every phi is complete
}

llvm::Type* FunctionShadows::wideOf(llvm::Type* t) const {
  llvm::Type* e = t->getScalarType();
  llvm::Type* w = e->isHalfTy() || e->isBFloatTy() ? (wideNarrow_ ? llvm::Type::getDoubleTy(ctx_) : llvm::Type::getFloatTy(ctx_))
                  : e->isFloatTy()                 ? llvm::Type::getDoubleTy(ctx_)
                                                   : nullptr;
  if (!w) return nullptr;
  if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t)) return llvm::FixedVectorType::get(w, v->getNumElements());
  return t->isVectorTy() ? nullptr : w;
}

llvm::Value* FunctionShadows::convert(llvm::IRBuilder<>& b, llvm::Value* s, llvm::Type* to) {
  unsigned from = s->getType()->getScalarSizeInBits(), into = to->getScalarSizeInBits();
  if (s->getType() == to) return s;
  if (from < into) return b.CreateFPExt(s, to);
  if (from > into) return b.CreateFPTrunc(s, to);
  return b.CreateBitCast(s, to);
}

void FunctionShadows::placeAfter(llvm::IRBuilder<>& b, llvm::Value* v) {
  if (auto* i = llvm::dyn_cast<llvm::Instruction>(v)) {
    if (llvm::isa<llvm::PHINode>(i)) b.SetInsertPoint(i->getParent(), i->getParent()->getFirstInsertionPt());
    else b.SetInsertPoint(i->getParent(), std::next(i->getIterator()));
    setHookLocation(b, i);
  } else {
    b.SetInsertPoint(&*f_.getEntryBlock().getFirstInsertionPt());
  }
}

llvm::Value* FunctionShadows::shadowOf(llvm::Value* v) {
  llvm::Type* w = wideOf(v->getType());
  if (!w) return v;  // double: its own shadow
  if (auto it = shadow_.find(v); it != shadow_.end()) return it->second;
  llvm::Value* s;
  if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
    s = llvm::ConstantFoldCastOperand(llvm::Instruction::FPExt, c, w, m_.getDataLayout());
    if (!s) s = llvm::UndefValue::get(w);
  } else {
    llvm::IRBuilder<> b(ctx_);
    placeAfter(b, v);
    s = b.CreateFPExt(v, w);
  }
  shadow_[v] = s;
  return s;
}

Site FunctionShadows::describe(llvm::Instruction& i, SiteKind kind, const std::string& what, Space space,
                     int object) {
  Site s;
  s.kind = kind;
  s.loc = userLocation(i);
  s.what = what;
  s.space = space;
  s.object = object;
  s.size = static_cast<unsigned>(i.getType()->isVoidTy() ? 0 : i.getType()->getScalarSizeInBits() / 8);
  return s;
}

unsigned FunctionShadows::site(llvm::Instruction& i, SiteKind kind, const std::string& what, Space space, int object) {
  return sites_.add(describe(i, kind, what, space, object));
}

llvm::Value* FunctionShadows::pairwise(std::vector<llvm::Value*> v, const std::function<llvm::Value*(llvm::Value*, llvm::Value*)>& op) {
  while (v.size() > 1) {
    std::vector<llvm::Value*> next;
    for (size_t k = 0; k + 1 < v.size(); k += 2) next.push_back(op(v[k], v[k + 1]));
    if (v.size() % 2) next.push_back(v.back());
    v.swap(next);
  }
  return v[0];
}

llvm::Value* FunctionShadows::reduceLanes(llvm::IRBuilderBase& b, const std::vector<llvm::Value*>& v,
                                          const std::function<llvm::Value*(llvm::Value*, llvm::Value*)>& op) {
  std::vector<std::pair<llvm::Type*, std::vector<llvm::Value*>>> byType;  // in the order met
  for (llvm::Value* x : v) {
    auto it = std::find_if(byType.begin(), byType.end(), [&](const auto& g) { return g.first == x->getType(); });
    if (it == byType.end()) it = byType.insert(byType.end(), {x->getType(), {}});
    it->second.push_back(x);
  }
  std::vector<llvm::Value*> scalars;
  for (auto& [type, same] : byType) {
    llvm::Value* x = pairwise(same, op);
    for (unsigned n = type->isVectorTy() ? llvm::cast<llvm::FixedVectorType>(type)->getNumElements() : 1; n > 1; n /= 2) {
      if (n % 2) scalars.push_back(b.CreateExtractElement(x, b.getInt32(n - 1)));  // an odd lane out
      llvm::SmallVector<int, 16> lo, hi;
      for (unsigned k = 0; k < n / 2; ++k) lo.push_back(static_cast<int>(k)), hi.push_back(static_cast<int>(n / 2 + k));
      x = op(b.CreateShuffleVector(x, lo), b.CreateShuffleVector(x, hi));
    }
    scalars.push_back(x->getType()->isVectorTy() ? b.CreateExtractElement(x, b.getInt32(0)) : x);
  }
  return pairwise(scalars, op);
}

void FunctionShadows::visit(llvm::Instruction& i) {
  if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(&i); bin && wideOf(i.getType())) {
    llvm::IRBuilder<> b(ctx_);
    placeAfter(b, &i);
    llvm::Value* s = b.CreateBinOp(bin->getOpcode(), shadowOf(bin->getOperand(0)), shadowOf(bin->getOperand(1)));
    // As the value may be contracted into an fma, so may its shadow (exact products: the wider the better).
    if (auto* si = llvm::dyn_cast<llvm::Instruction>(s); si && llvm::isa<llvm::FPMathOperator>(si) && bin->hasAllowContract())
      si->setHasAllowContract(true);
    define(i, s, llvm::Instruction::getOpcodeName(bin->getOpcode()), {bin->getOperand(0), bin->getOperand(1)});
  } else if (auto* un = llvm::dyn_cast<llvm::UnaryOperator>(&i); un && wideOf(i.getType())) {
    llvm::IRBuilder<> b(ctx_);
    placeAfter(b, &i);
    shadow_[&i] = b.CreateFNeg(shadowOf(un->getOperand(0)));
  } else if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(&i); sel && wideOf(i.getType())) {
    llvm::IRBuilder<> b(ctx_);
    placeAfter(b, &i);
    shadow_[&i] = b.CreateSelect(sel->getCondition(), shadowOf(sel->getTrueValue()), shadowOf(sel->getFalseValue()));
  } else if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&i)) {
    visitCast(*cast);
  } else if (auto* ee = llvm::dyn_cast<llvm::ExtractElementInst>(&i); ee && wideOf(i.getType())) {
    llvm::IRBuilder<> b(ctx_);
    placeAfter(b, &i);
    shadow_[&i] = b.CreateExtractElement(shadowOf(ee->getVectorOperand()), ee->getIndexOperand());
  } else if (auto* ie = llvm::dyn_cast<llvm::InsertElementInst>(&i); ie && wideOf(i.getType())) {
    llvm::IRBuilder<> b(ctx_);
    placeAfter(b, &i);
    shadow_[&i] = b.CreateInsertElement(shadowOf(ie->getOperand(0)), shadowOf(ie->getOperand(1)), ie->getOperand(2));
  } else if (auto* sv = llvm::dyn_cast<llvm::ShuffleVectorInst>(&i); sv && wideOf(i.getType())) {
    llvm::IRBuilder<> b(ctx_);
    placeAfter(b, &i);
    shadow_[&i] = b.CreateShuffleVector(shadowOf(sv->getOperand(0)), shadowOf(sv->getOperand(1)), sv->getShuffleMask());
  } else if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i); ld && wideOf(i.getType())) {
    if (llvm::Value* s = loadShadow(*ld, ld->getPointerOperand(), i.getType())) shadow_[&i] = s;
  } else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
    stores_.push_back(st);  // after every value's shadow is known (an LCSSA phi of half bits, say)
  } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
    visitCall(*call);
  } else if (auto* ev = llvm::dyn_cast<llvm::ExtractValueInst>(&i); ev && ev->getNumIndices() == 1) {
    auto it = results_.find(ev->getAggregateOperand());
    if (it == results_.end() || ev->getIndices()[0] >= it->second.size()) return;
    const Packed& r = it->second[ev->getIndices()[0]];
    if (r.type == ev->getType()) shadow_[ev] = r.shadow;
    else packed_[ev] = r;
  }
}

llvm::Value* FunctionShadows::nonFinite(llvm::IRBuilderBase& b, llvm::Value* v) {
  llvm::Value* magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  return b.CreateFCmpUEQ(magnitude, llvm::ConstantFP::getInfinity(v->getType()));
}

void FunctionShadows::define(llvm::Instruction& i, llvm::Value* s, const std::string& op, std::vector<llvm::Value*> operands) {
  shadow_[&i] = s;
  checkBirth(i, &i, s, op, operands);
}

void FunctionShadows::checkBirth(llvm::Instruction& at, llvm::Value* value, llvm::Value* s, const std::string& op,
                std::vector<llvm::Value*> operands) {
  unsigned id = site(at, SiteKind::FloatOp, fmt::format("{} ({})", op, typeName(value->getType())));
  births_.push_back({&at, value, s, id, std::move(operands)});
}

void FunctionShadows::checkBirths() {
  llvm::DenseMap<llvm::Instruction*, const Birth*> byInst;
  for (const Birth& x : births_) byInst[x.at] = &x;
  auto absorbed = [&](const Birth& x) {
    if (x.value != x.at || x.at->user_empty()) return false;
    for (llvm::User* u : x.at->users()) {
      auto* ui = llvm::dyn_cast<llvm::Instruction>(u);
      if (!ui || ui->getParent() != x.at->getParent() || !byInst.count(ui)) return false;
    }
    return true;
  };
  auto inBlock = [](llvm::Value* v, llvm::BasicBlock* bb) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    return !i || i->getParent() == bb;
  };
  auto records = [](const Birth& y) {
    auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(y.value->getType());
    return vec ? vec->getNumElements() : 1u;
  };
  struct Group {
    std::vector<const Birth*> tested, asked;  // asked: each tested birth's absorbed chain, operands first
    unsigned records = 0;
  };
  std::vector<Group> groups;
  llvm::DenseMap<llvm::BasicBlock*, size_t> open;  // a block's group being filled
  for (const Birth& x : births_) {
    if (absorbed(x)) continue;
    std::vector<const Birth*> chain;
    std::function<void(const Birth&)> gather = [&](const Birth& y) {
      if (std::find(chain.begin(), chain.end(), &y) != chain.end()) return;
      for (llvm::Value* op : y.at->operands())
        if (auto* oi = llvm::dyn_cast<llvm::Instruction>(op))
          if (auto it = byInst.find(oi); it != byInst.end() && absorbed(*it->second)) gather(*it->second);
      chain.push_back(&y);
    };
    gather(x);
    unsigned n = 0;
    for (const Birth* y : chain) n += records(*y);
    llvm::BasicBlock* bb = x.at->getParent();
    bool alone = !inBlock(x.value, bb) || !inBlock(x.shadow, bb);  // tested where it is
    Group* g = nullptr;
    if (auto it = open.find(bb); !alone && it != open.end() && groups[it->second].records + n <= TD_NUM_BIRTHS)
      g = &groups[it->second];
    if (!g) {
      groups.emplace_back();
      g = &groups.back();
      if (!alone) open[bb] = groups.size() - 1;
    }
    g->tested.push_back(&x);
    for (const Birth* y : chain)
      if (std::find(g->asked.begin(), g->asked.end(), y) == g->asked.end()) g->asked.push_back(y);
    g->records += n;
  }
  // The last group of a block first: a test splits its block after the group, leaving the earlier ones be.
  for (auto g = groups.rbegin(); g != groups.rend(); ++g) emitBirthTest(g->tested, g->asked);
}

llvm::Value* FunctionShadows::carriedNonFinite(llvm::Value* addend, const Birth& y, llvm::Instruction* coldEnd) {
  auto* phi = llvm::dyn_cast<llvm::PHINode>(addend);
  if (!phi || phi->getType() != y.value->getType()) return nullptr;
  llvm::BasicBlock* latch = nullptr;  // the one edge that brings the tested result back
  for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
    if (phi->getIncomingValue(k) == y.value) {
      if (latch) return nullptr;
      latch = phi->getIncomingBlock(k);
    }
  llvm::BasicBlock* cold = coldEnd->getParent();
  llvm::BasicBlock* hot = cold->getSinglePredecessor();
  llvm::BasicBlock* tail = cold->getSingleSuccessor();
  if (!latch || !hot || !tail) return nullptr;
  if (!llvm::DominatorTree(f_).dominates(tail, latch)) return nullptr;  // a way back that skips the test
  auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(phi->getType());
  llvm::Type* bits = llvm::IntegerType::get(ctx_, vec ? vec->getNumElements() : 1);
  auto mask = [&](llvm::IRBuilder<>& b, llvm::Value* v) {
    llvm::Value* m = nonFinite(b, v);
    return vec ? b.CreateBitCast(m, bits) : m;
  };
  // After the test: no lane non-finite where it passed, else those the cold path finds. (`y` is among the
  // values this test sums: a value a phi takes is never absorbed into another birth's test.)
  llvm::PHINode* after = llvm::PHINode::Create(bits, 2, "td.nonfinite", tail->begin());
  after->addIncoming(llvm::ConstantInt::get(bits, 0), hot);
  llvm::IRBuilder<> c(coldEnd);
  after->addIncoming(mask(c, y.value), cold);
  // At the top of the loop: that, or the entering values' own test, once per entry.
  llvm::PHINode* carried = llvm::PHINode::Create(bits, phi->getNumIncomingValues(), "td.nonfinite.carried",
                                                 phi->getParent()->begin());
  for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
    llvm::BasicBlock* from = phi->getIncomingBlock(k);
    if (phi->getIncomingValue(k) == y.value) {
      carried->addIncoming(after, from);
    } else {
      llvm::IRBuilder<> e(from->getTerminator());
      carried->addIncoming(mask(e, phi->getIncomingValue(k)), from);
    }
  }
  return vec ? c.CreateBitCast(carried, llvm::FixedVectorType::get(c.getInt1Ty(), vec->getNumElements())) : carried;
}

void FunctionShadows::emitBirthTest(const std::vector<const Birth*>& tested, const std::vector<const Birth*>& asked) {
  llvm::Instruction* last = tested[0]->at;
  for (const Birth* x : tested)
    for (llvm::Value* v : {static_cast<llvm::Value*>(x->at), x->value, x->shadow})
      if (auto* d = llvm::dyn_cast<llvm::Instruction>(v); d && d->getParent() == last->getParent() && last->comesBefore(d))
        last = d;
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, last);
  setHookLocation(b, tested[0]->at);
  std::vector<llvm::Value*> terms;
  for (const Birth* x : tested) {
    auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(x->value->getType());
    terms.push_back(convert(b, x->value, vec ? static_cast<llvm::Type*>(llvm::FixedVectorType::get(b.getFloatTy(), vec->getNumElements()))
                                             : b.getFloatTy()));
  }
  // Non-finite if any term is (a finite sum that overflows only takes the cold path, which looks again).
  llvm::Value* sum = reduceLanes(b, terms, [&](llvm::Value* x, llvm::Value* y) { return b.CreateFAdd(x, y); });
  llvm::Value* bad = nonFinite(b, sum);
  llvm::MDNode* cold = llvm::MDBuilder(ctx_).createBranchWeights(1, 1u << 20);
  llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(bad, b.GetInsertPoint(), false, cold);
  llvm::IRBuilder<> t(then);
  llvm::Type* dbl = t.getDoubleTy();
  llvm::Type* i32 = t.getInt32Ty();
  llvm::StructType* record = llvm::StructType::get(ctx_, {i32, i32, dbl, dbl, dbl, dbl});  // td_num_birth
  if (!birthRecords_) {
    llvm::IRBuilder<> entry(&*f_.getEntryBlock().getFirstInsertionPt());
    birthRecords_ = entry.CreateAlloca(llvm::ArrayType::get(record, TD_NUM_BIRTHS), nullptr, "td.births");
  }
  llvm::FunctionCallee hook = hookFunction(m_, Hook::num_nonfinite);
  unsigned n = 0;
  auto flush = [&] {
    if (n) t.CreateCall(hook, {genericPointer(t, birthRecords_), t.getInt32(n)});
    n = 0;
  };
  // Fields are stored in their own types and widened by the runtime: a conversion here would be merged
  // with the same one of the hot path, whose result would then stay live until the test.
  auto format = [](llvm::Value* v) -> unsigned {
    llvm::Type* e = v ? v->getType()->getScalarType() : nullptr;
    return !e || e->isDoubleTy() ? TD_NUM_FIELD_DOUBLE : e->isFloatTy() ? TD_NUM_FIELD_FLOAT
           : e->isHalfTy() ? TD_NUM_FIELD_HALF : TD_NUM_FIELD_BF16;
  };
  for (const Birth* y : asked) {
    setHookLocation(t, y->at);
    auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(y->value->getType());
    auto lane = [&](llvm::Value* v, unsigned k) -> llvm::Value* {
      if (!v) return llvm::ConstantFP::get(dbl, 0.0);
      return v->getType()->isVectorTy() ? t.CreateExtractElement(v, t.getInt32(k)) : v;
    };
    const std::vector<llvm::Value*>& ops = y->operands;
    llvm::Value* a = ops.size() > 0 ? ops[0] : nullptr;
    llvm::Value* bOp = ops.size() > 1 ? ops[1] : nullptr;
    // The record holds two operands: a non-finite one past them (an fma's addend) takes b's place, so the
    // runtime sees that the result was not born here.
    for (size_t k = 2; k < ops.size() && bOp; ++k) {
      if (ops[k]->getType() != bOp->getType()) continue;
      llvm::Value* kept = t.CreateSelect(nonFinite(t, ops[k]), ops[k], bOp);
      // Each executor folds its primitive, and the other form goes (on the GPU the mask's phis with it).
      if (llvm::Value* carried = carriedNonFinite(ops[k], *y, then))
        kept = t.CreateSelect(t.CreateCall(hookFunction(m_, Hook::few_vector_registers)),
                              t.CreateSelect(carried, llvm::ConstantFP::getNaN(bOp->getType()), bOp), kept);
      bOp = kept;
    }
    // An absorbed product's shadow is worked out by the runtime from its operands (its own would keep the
    // operands' wide shadows live); every other birth's is the one computed.
    unsigned redo = 0;
    if (std::find(tested.begin(), tested.end(), y) == tested.end())
      if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(y->at); bin && a && bOp)
        redo = bin->getOpcode() == llvm::Instruction::FMul ? TD_NUM_REDO_MUL
               : bin->getOpcode() == llvm::Instruction::FAdd ? TD_NUM_REDO_ADD
               : bin->getOpcode() == llvm::Instruction::FSub ? TD_NUM_REDO_SUB
               : bin->getOpcode() == llvm::Instruction::FDiv ? TD_NUM_REDO_DIV : 0;
    llvm::Value* shadow = redo ? nullptr : y->shadow;
    unsigned formats = format(y->value) << TD_NUM_VALUE_FORMAT | format(shadow) << TD_NUM_SHADOW_FORMAT |
                       format(a) << TD_NUM_A_FORMAT | format(bOp) << TD_NUM_B_FORMAT;
    for (unsigned k = 0, lanes = vec ? vec->getNumElements() : 1; k < lanes; ++k) {
      unsigned word = k | static_cast<unsigned>(std::min<size_t>(ops.size(), 2)) << 8 | formats | redo;
      llvm::Value* fields[] = {t.getInt32(y->site), t.getInt32(word), lane(y->value, k), lane(shadow, k), lane(a, k), lane(bOp, k)};
      llvm::Value* at = t.CreateConstInBoundsGEP1_32(record, birthRecords_, n);
      for (unsigned f = 0; f < 6; ++f) t.CreateStore(fields[f], t.CreateConstInBoundsGEP2_32(record, at, 0, f));
      if (++n == TD_NUM_BIRTHS) flush();
    }
  }
  flush();
}

void FunctionShadows::visitCast(llvm::CastInst& c) {
  llvm::Value* src = c.getOperand(0);
  llvm::Type* w = wideOf(c.getType());
  switch (c.getOpcode()) {
    case llvm::Instruction::FPExt:
      if (w) {
        llvm::IRBuilder<> b(ctx_);
        placeAfter(b, &c);
        // Widening is exact: where the source's shadow is its own value (moved from the inputs, no arithmetic),
        // the result widened once more is the same shadow — one conversion chain that the vectorisers keep
        // together with the kernel's own (a GEMM's 4 x half tile column became floats twice on the CPU, once
        // packed for the kernel and once lane by lane for the shadow).
        shadow_[&c] = convert(b, shadowless_.mayCarryShadow(src) ? shadowOf(src) : &c, w);
      }
      return;
    case llvm::Instruction::FPTrunc:
      if (w) {  // the rounding into the narrower type is what the shadow measures
        llvm::IRBuilder<> b(ctx_);
        placeAfter(b, &c);
        define(c, convert(b, shadowOf(src), w), fmt::format("conversion to {}", typeName(c.getType())), {src});
      }
      return;
    case llvm::Instruction::SIToFP:
    case llvm::Instruction::UIToFP:
      if (w) {
        llvm::IRBuilder<> b(ctx_);
        placeAfter(b, &c);
        shadow_[&c] = c.getOpcode() == llvm::Instruction::SIToFP ? b.CreateSIToFP(src, w) : b.CreateUIToFP(src, w);
      }
      return;
    case llvm::Instruction::BitCast:
      if (w && !wideOf(src->getType())) {  // integer bits back to FP: packed halves, or a load of them
        if (auto it = packed_.find(src); it != packed_.end() && it->second.type == c.getType()) {
          shadow_[&c] = it->second.shadow;
        } else if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(src)) {
          if (llvm::Value* s = loadShadow(*ld, ld->getPointerOperand(), c.getType(), &c)) shadow_[&c] = s;
        }
      } else if (!w && wideOf(src->getType())) {  // FP bits kept in an integer (asm operands, shuffles, stores)
        packed_[&c] = {shadowOf(src), src->getType()};
      } else if (w) {
        llvm::IRBuilder<> b(ctx_);
        placeAfter(b, &c);
        llvm::Value* s = shadowOf(src);
        if (s->getType()->getPrimitiveSizeInBits() == w->getPrimitiveSizeInBits()) shadow_[&c] = b.CreateBitCast(s, w);
      }
      return;
    default:
      return;
  }
}

int FunctionShadows::spaceOf(llvm::Value* ptr, int& object) {
  ShadowMemory at = shadowMemoryOf(roots_, ptr, sharedIds_);
  object = at.object;
  return shadowless_.shadowless(f_, at) ? -1 : at.space;
}

llvm::Value* FunctionShadows::loadShadow(llvm::LoadInst& ld, llvm::Value* ptr, llvm::Type* t, llvm::Instruction* at) {
  int object = -1;
  int space = spaceOf(ptr, object);
  if (space < 0) return nullptr;  // a fresh shadow where it is used
  llvm::Instruction* value = at ? at : &ld;
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, value);
  llvm::Type* dbl = b.getDoubleTy();
  llvm::FunctionCallee hook =
      hookFunction(m_, Hook::num_load);
  llvm::Type* w = wideOf(t);
  auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(t);
  llvm::Type* elem = t->getScalarType();
  llvm::Value* s = llvm::UndefValue::get(w);
  for (unsigned k = 0, n = vec ? vec->getNumElements() : 1; k < n; ++k) {
    llvm::Value* v = vec ? b.CreateExtractElement(value, b.getInt32(k)) : value;
    llvm::Value* p = genericPointer(b, b.CreateConstGEP1_32(elem, ptr, k));
    llvm::Value* got = b.CreateCall(hook, {p, b.getInt32(space), b.getInt32(std::max(object, 0)), convert(b, v, dbl)});
    got = convert(b, got, w->getScalarType());
    s = vec ? b.CreateInsertElement(s, got, b.getInt32(k)) : got;
  }
  return s;
}

void FunctionShadows::visitCall(llvm::CallInst& call) {
  if (auto* ia = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand())) return asmShadow(call, *ia);
  llvm::Function* callee = call.getCalledFunction();
  if (!callee) return;
  llvm::StringRef name = callee->getName();
  if (name.starts_with("llvm.nvvm.shfl.")) return shuffle(call);
  llvm::Type* w = wideOf(call.getType());
  if (!w) return;
  MathTwin twin;
  if (!mathTwinOf(name, callee->getIntrinsicID(), twin)) return;
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, &call);
  std::vector<llvm::Value*> args, fpArgs;
  for (llvm::Value* a : call.args()) {
    if (wideOf(a->getType())) fpArgs.push_back(a);
    args.push_back(wideOf(a->getType()) ? shadowOf(a) : a);
  }
  llvm::Value* s;
  if (twin.divide) {
    s = b.CreateFDiv(args[0], args[1]);
  } else if (twin.intrinsic) {
    std::vector<llvm::Value*> wideArgs;
    for (llvm::Value* a : args) wideArgs.push_back(a->getType()->isFPOrFPVectorTy() ? convert(b, a, w) : a);
    s = b.CreateIntrinsic(static_cast<llvm::Intrinsic::ID>(twin.intrinsic), {w}, wideArgs);
  } else {
    llvm::Type* dbl = b.getDoubleTy();
    std::vector<llvm::Type*> types;
    std::vector<llvm::Value*> dargs;
    for (llvm::Value* a : args) {
      dargs.push_back(a->getType()->isFPOrFPVectorTy() ? convert(b, a, dbl) : a);
      types.push_back(dargs.back()->getType());
    }
    if (call.getType()->isVectorTy()) return;  // libdevice is scalar
    llvm::FunctionCallee fn = m_.getOrInsertFunction(twin.wide, llvm::FunctionType::get(dbl, types, false));
    s = convert(b, b.CreateCall(fn, dargs), w);
  }
  define(call, s, twin.name, fpArgs);
}

llvm::Value* FunctionShadows::halfShadow(llvm::Value* v, llvm::Type* t) {
  if (v->getType() == t) return shadowOf(v);
  if (auto it = packed_.find(v); it != packed_.end() && it->second.type == t) return it->second.shadow;
  llvm::Type* w = wideOf(t);
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(v)) {
    llvm::PHINode* sp = llvm::PHINode::Create(w, phi->getNumIncomingValues(), "", phi->getIterator());
    packed_[v] = {sp, t};
    bitsPhis_.push_back({phi, sp, t});
    return sp;
  }
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, v);
  llvm::Value* bits = b.CreateZExtOrTrunc(v, b.getIntNTy(static_cast<unsigned>(t->getPrimitiveSizeInBits())));
  llvm::Value* view = b.CreateBitCast(bits, t);
  llvm::Value* s = nullptr;
  if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(v); ld && llvm::isa<llvm::Instruction>(view))
    s = loadShadow(*ld, ld->getPointerOperand(), t, llvm::cast<llvm::Instruction>(view));
  if (!s) s = b.CreateFPExt(view, w);
  packed_[v] = {s, t};
  return s;
}

std::string FunctionShadows::roundedThrough(llvm::Value* v, llvm::Type* stored) {
  auto bits = [](llvm::Type* t) { return t->isBFloatTy() ? 8 : t->isHalfTy() ? 11 : t->isFloatTy() ? 24 : 53; };
  llvm::Type* narrowest = stored->getScalarType();
  std::vector<llvm::Value*> work{v};
  llvm::SmallPtrSet<llvm::Value*, 32> seen;
  while (!work.empty() && seen.size() < 512) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(work.back());
    work.pop_back();
    if (!i || !seen.insert(i).second || llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::AllocaInst>(i)) continue;
    llvm::Type* to = nullptr;
    if (llvm::isa<llvm::FPTruncInst>(i)) to = i->getType()->getScalarType();
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(i))
      if (auto* ia = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()))
        if (auto st = parsePtx(ia->getAsmString())) {
          bool bf = st->op == PtxOp::CvtPack ? st->k == 1 : st->mode == static_cast<int>(HalfScalarKind::NarrowBF16);
          if (st->op == PtxOp::CvtPack || (st->op == PtxOp::HalfScalar &&
                                          (st->mode == static_cast<int>(HalfScalarKind::NarrowF16) ||
                                           st->mode == static_cast<int>(HalfScalarKind::NarrowBF16))))
            to = bf ? llvm::Type::getBFloatTy(ctx_) : llvm::Type::getHalfTy(ctx_);
        }
    if (to && bits(to) < bits(narrowest)) narrowest = to;
    for (llvm::Value* op : i->operands()) work.push_back(op);
  }
  return narrowest == stored->getScalarType() ? "" : typeName(narrowest);
}

llvm::Type* FunctionShadows::packedTypeOf(llvm::Value* v, unsigned depth) {
  if (auto it = packed_.find(v); it != packed_.end()) return it->second.type;
  auto* phi = llvm::dyn_cast<llvm::PHINode>(v);
  if (!phi || depth > 8) return nullptr;
  for (llvm::Value* in : phi->incoming_values())
    if (in != phi)
      if (llvm::Type* t = packedTypeOf(in, depth + 1)) return t;
  return nullptr;
}

llvm::Value* FunctionShadows::viewOf(llvm::Value* v, llvm::Type* t) {
  if (v->getType() == t) return v;
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, v);
  return b.CreateBitCast(b.CreateZExtOrTrunc(v, b.getIntNTy(static_cast<unsigned>(t->getPrimitiveSizeInBits()))), t);
}

void FunctionShadows::shuffle(llvm::CallInst& call) {
  llvm::Function* callee = call.getCalledFunction();
  llvm::StringRef name = callee->getName();
  bool sync = name.starts_with("llvm.nvvm.shfl.sync.");
  unsigned valueArg = sync ? 1 : 0;
  llvm::Value* v = call.getArgOperand(valueArg);
  llvm::Value* s = nullptr;
  llvm::Type* fpType = v->getType();
  if (wideOf(v->getType())) s = shadowOf(v);
  else if (auto it = packed_.find(v); it != packed_.end()) s = it->second.shadow, fpType = it->second.type;
  if (!s || name.ends_with(".p") || call.getType()->isStructTy()) return;
  std::string i32Name = name.str();
  if (llvm::StringRef(i32Name).ends_with(".f32")) i32Name.replace(i32Name.size() - 3, 3, "i32");
  llvm::IRBuilder<> b(ctx_);
  placeAfter(b, &call);
  std::vector<llvm::Type*> types;
  for (llvm::Value* a : call.args()) types.push_back(a->getType());
  types[valueArg] = b.getInt32Ty();
  llvm::FunctionCallee fn = m_.getOrInsertFunction(i32Name, llvm::FunctionType::get(b.getInt32Ty(), types, false));
  unsigned words = static_cast<unsigned>(s->getType()->getPrimitiveSizeInBits() / 32);
  llvm::Value* bits = b.CreateBitCast(s, llvm::FixedVectorType::get(b.getInt32Ty(), words));
  llvm::Value* moved = llvm::UndefValue::get(bits->getType());
  for (unsigned k = 0; k < words; ++k) {
    std::vector<llvm::Value*> args(call.arg_begin(), call.arg_end());
    args[valueArg] = b.CreateExtractElement(bits, b.getInt32(k));
    moved = b.CreateInsertElement(moved, b.CreateCall(fn, args), b.getInt32(k));
  }
  llvm::Value* out = b.CreateBitCast(moved, s->getType());
  if (wideOf(call.getType())) shadow_[&call] = out;
  else packed_[&call] = {out, fpType};
}

}  // namespace td::shadows
