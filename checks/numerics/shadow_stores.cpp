// Stores in the numerics family's shadow pass. A shadowed store leaves value and shadow in memory where
// something reads them back (a load of the kernel, or the host's fp64 reference of an output), and adds its
// drift to a tally kept in the thread's registers (numerics_abi.h, td_num_tally). The stores of one site in
// one block with no shadow-reading load between them (an unrolled epilogue's) are one run: one tally, added
// to the site's record once, at the run's end; an unrolled tree reduction's steps (store, load, store) are
// runs of their own and keep their own records. A run inside a loop nest (a reduction's step, a row loop's
// store) keeps its tally across the nest's iterations, added once the nest is left (for the first
// kLoopTallies of a function: each costs its registers through the loops).
#include <map>
#include <tuple>

#include <llvm/IR/Dominators.h>

#include "checks/numerics/function_shadows.h"
#include "instrument/hook_functions.h"

namespace td::shadows {

namespace {

// Whether `i` may read shadows a store left: a load's hook, or a call into code that may have one.
bool readsShadows(const llvm::Instruction& i) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
  if (!call || call->isInlineAsm()) return false;
  llvm::Function* callee = call->getCalledFunction();
  if (!callee) return true;
  if (callee->isIntrinsic()) return false;
  llvm::StringRef name = callee->getName();
  return name == hookSymbol(Hook::num_load) || !isOwnSymbol(name);
}

}  // namespace

std::optional<FunctionShadows::ShadowedStore> FunctionShadows::shadowedStore(llvm::StoreInst& st) {
  llvm::Value* v = st.getValueOperand();
  llvm::Value* s = nullptr;
  llvm::Type* t = v->getType();
  if (wideOf(t)) {
    s = shadowOf(v);
  } else if (llvm::Type* fp = packedTypeOf(v)) {  // FP bits stored as an integer
    s = halfShadow(v, fp);
    t = fp;
    llvm::IRBuilder<> b(&st);
    v = b.CreateBitCast(v, t);
  } else {
    return std::nullopt;
  }
  int object = -1;
  int space = spaceOf(st.getPointerOperand(), object);
  if (space < 0) return std::nullopt;  // the thread's own memory (not an output), or memory that keeps no shadows
  return ShadowedStore{&st, v, s, t, space, object};
}

void FunctionShadows::visitStores() {
  // Per instruction of a block with stores, how many shadow-reading instructions precede it there.
  llvm::DenseMap<const llvm::Instruction*, unsigned> epoch;
  for (llvm::StoreInst* st : stores_) {
    llvm::BasicBlock* bb = st->getParent();
    if (epoch.count(&bb->front())) continue;
    unsigned n = 0;
    for (llvm::Instruction& i : *bb) {
      epoch[&i] = n;
      if (readsShadows(i)) ++n;
    }
  }
  using Key = std::tuple<llvm::BasicBlock*, unsigned, std::string, unsigned, unsigned, std::string, int, int, std::string, int>;
  std::map<Key, size_t> runOf;
  std::vector<std::pair<unsigned, std::vector<ShadowedStore>>> runs;  // site, stores in program order
  for (llvm::StoreInst* st : stores_) {
    std::optional<ShadowedStore> x = shadowedStore(*st);
    if (!x) continue;
    Site s = describe(*st, SiteKind::Store, typeName(x->type), x->space == 0 ? Space::Global : Space::Shared, x->object);
    s.size = x->type->getScalarSizeInBits() / 8;
    s.roundedThrough = roundedThrough(x->value, x->type);
    s.origin = originOf(x->value);
    Key key{st->getParent(), epoch.lookup(st), s.loc.file, s.loc.line, s.loc.col, s.what, x->space, x->object,
            s.roundedThrough, s.origin};
    auto [it, fresh] = runOf.emplace(key, runs.size());
    if (fresh) runs.push_back({sites_.add(s), {}});
    runs[it->second].second.push_back(*x);
  }
  if (runs.empty()) return;
  llvm::DominatorTree dt(f_);
  llvm::LoopInfo loops(dt);
  unsigned loopTallies = 0;
  for (const auto& [site, stores] : runs) {
    llvm::Loop* nest = loops.getLoopFor(stores.front().st->getParent());
    while (nest && nest->getParentLoop()) nest = nest->getParentLoop();
    if (nest && loopTallies++ >= kLoopTallies) nest = nullptr;
    emitRun(stores, site, nest);
  }
}

void FunctionShadows::emitRun(const std::vector<ShadowedStore>& run, unsigned site, llvm::Loop* nest) {
  llvm::IRBuilder<> entry(&*f_.getEntryBlock().getFirstInsertionPt());
  llvm::Type* dbl = entry.getDoubleTy();
  llvm::Type* i32 = entry.getInt32Ty();
  llvm::Type* i64 = entry.getInt64Ty();
  // td_num_tally's layout: eight doubles, the offset, the count and the level reached
  llvm::StructType* tallyType = llvm::StructType::get(ctx_, {dbl, dbl, dbl, dbl, dbl, dbl, dbl, dbl, i64, i32, i32});
  llvm::AllocaInst* tally = entry.CreateAlloca(tallyType, nullptr, "td.tally");
  auto zero = [&](llvm::IRBuilder<>& b) { b.CreateMemSet(tally, b.getInt8(0), sizeof(td_num_tally), tally->getAlign()); };
  llvm::FunctionCallee flush = hookFunction(m_, Hook::num_tally_end);
  const ShadowedStore& first = run.front();
  // Zeroed at the function's entry (an outermost loop is entered at most once a call); added to the record
  // on every way out of the nest, and zeroed again there (a way out may lead to another).
  if (nest) {
    zero(entry);
    llvm::SmallVector<llvm::BasicBlock*, 4> exits;
    nest->getExitBlocks(exits);
    std::sort(exits.begin(), exits.end());
    exits.erase(std::unique(exits.begin(), exits.end()), exits.end());
    for (llvm::BasicBlock* e : exits) {
      llvm::IRBuilder<> out(e, e->getFirstInsertionPt());
      setHookLocation(out, first.st);
      out.CreateCall(flush, {out.getInt32(site), genericPointer(out, tally)});
      zero(out);
    }
  } else {
    llvm::IRBuilder<> b(first.st);
    zero(b);
  }

  llvm::FunctionCallee add = hookFunction(m_, Hook::num_tally_store);
  // No shadow memory where nothing reads it back: no load of the kernel's, nor the host (an output kept
  // for diff's fp64 reference).
  bool keep = shadowless_.readBack(f_, {first.space, first.object}) || (first.space == 0 && keepOutputShadows_);
  unsigned type = typeCode(first.type) | (countSubnormals_ ? TD_NUM_COUNT_SUBNORMALS : 0u) | (keep ? 0u : TD_NUM_NO_GRANULE);
  llvm::Value* iteration = storeIteration_.lookup(first.st);
  if (!iteration) iteration = entry.getInt32(TD_NUM_NOT_IN_LOOP);
  for (const ShadowedStore& x : run) {
    llvm::IRBuilder<> at(x.st);
    setHookLocation(at, x.st);
    auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(x.type);
    for (unsigned k = 0, n = vec ? vec->getNumElements() : 1; k < n; ++k) {
      llvm::Value* ve = vec ? at.CreateExtractElement(x.value, at.getInt32(k)) : x.value;
      llvm::Value* se = vec ? at.CreateExtractElement(x.shadow, at.getInt32(k)) : x.shadow;
      llvm::Value* p = genericPointer(at, at.CreateConstGEP1_32(x.type->getScalarType(), x.st->getPointerOperand(), k));
      at.CreateCall(add, {genericPointer(at, tally), at.getInt32(site), p, at.getInt32(x.space), at.getInt32(std::max(x.object, 0)),
                          convert(at, ve, dbl), convert(at, se, dbl), at.getInt32(type), iteration});
    }
  }
  if (nest) return;
  llvm::StoreInst* last = run.back().st;
  llvm::IRBuilder<> end(last->getParent(), std::next(last->getIterator()));
  setHookLocation(end, last);
  end.CreateCall(flush, {end.getInt32(site), genericPointer(end, tally)});
}

}  // namespace td::shadows
