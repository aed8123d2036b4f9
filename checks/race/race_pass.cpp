#include "checks/race/race_pass.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Module.h>
#include <fmt/format.h>
#include <map>
#include <set>

#include "instrument/accesses.h"
#include "checks/race/affine_offsets.h"
#include "checks/race/barrier_intervals.h"
#include "checks/race/disjoint_writes.h"
#include "checks/race/hoisted_init_reads.h"
#include "checks/race/own_bytes.h"
#include "instrument/shared_objects.h"
#include "instrument/pointer_roots.h"
#include "instrument/ptx_catalogue.h"
#include "checks/race/race_abi.h"
#include "model/abi.h"
#include "instrument/hook_functions.h"

namespace td {

namespace {

// Stores, atomics, and the destination of a memory intrinsic (its source is read).
bool isWrite(const Access& a) {
  return a.kind == SiteKind::Store || a.kind == SiteKind::Atomic ||
         (a.kind == SiteKind::MemIntrinsic && a.ptr == a.inst->getOperand(0));
}

// Kernel arguments some access writes through; `unknown` when a write's target is unknown (any buffer).
std::set<unsigned> writtenArguments(llvm::Module& m, bool& unknown) {
  std::set<unsigned> written;
  unknown = false;
  forEachUserAccess(m, [&](Access& a, const PointerRoot& root) {
    if (!isWrite(a) || root.shared() || a.ptr->getType()->getPointerAddressSpace() == 3) return;
    if (root.kind == PointerRoot::KernelArg) written.insert(root.argNo);
    else if (root.kind != PointerRoot::Local) unknown = true;
  });
  return written;
}

// What barrier intervals (barrier_intervals.h) say about a kernel's shared accesses.
struct IntervalFacts {
  // Reads that share no interval with any write to their array: they cannot race, so they need the init
  // check only.
  std::set<const llvm::Instruction*> quietReads;
  // Plain stores that share no interval with any other access to their array: they can race only with
  // themselves, which disjoint_writes.h may rule out for a launch.
  std::set<const llvm::Instruction*> loneWrites;
  // Accesses no other thread's access meets in their intervals where one of the two writes (own_bytes.h),
  // for launches with blockDim.y == blockDim.z == 1.
  std::set<const llvm::Instruction*> ownBytes;
};

// Writes through pointers of unknown root count as writes to every array; a device function that writes
// an array (its intervals are not the kernel's) leaves no read of it quiet, and one that touches it leaves
// no write of it lone. An asynchronous copy also writes where its thread waits for it (the CPU executor
// lands it there, through kAsyncCopyLanding, which no kernel calls): each wait counts as a write to every
// array.
IntervalFacts intervalFacts(llvm::Module& m) {
  using Key = std::pair<const llvm::Function*, const llvm::GlobalVariable*>;
  std::map<const llvm::Function*, BarrierIntervals> intervals;
  std::map<Key, llvm::BitVector> writes, readsOf;
  std::vector<std::pair<const llvm::Instruction*, const llvm::GlobalVariable*>> reads, stores;
  std::set<const llvm::GlobalVariable*> writtenByHelpers, touchedByHelpers;  // null: any array
  std::vector<std::pair<const llvm::Instruction*, const llvm::GlobalVariable*>> arrayWrites;
  std::map<Key, std::vector<OwnBytes::Access>> byArray;  // every access of each array (own_bytes.h)
  auto mark = [](std::map<Key, llvm::BitVector>& into, Key k, const llvm::BitVector& at) {
    llvm::BitVector& w = into[k];
    if (w.empty()) w.resize(at.size());
    w |= at;
  };
  // Every extern (dynamic) shared array starts at the window's dynamic offset: two of them are one array.
  auto isDynamic = [&](const llvm::GlobalVariable& v) {
    return v.isDeclaration() || m.getDataLayout().getTypeAllocSize(v.getValueType()) == 0;
  };
  const llvm::GlobalVariable* dynamic = nullptr;
  for (const llvm::GlobalVariable& gv : m.globals())
    if (gv.getAddressSpace() == 3 && !dynamic && isDynamic(gv)) dynamic = &gv;
  auto arrayOf = [&](const llvm::GlobalVariable* v) { return isDynamic(*v) ? dynamic : v; };
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || !isKernel(f)) continue;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        auto* text = call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
        std::optional<PtxStatement> st = text ? parsePtx(text->getAsmString()) : std::nullopt;
        if (!st || st->op != PtxOp::CpAsyncWait) continue;
        const BarrierIntervals& in = intervals.try_emplace(&f, f).first->second;
        if (in.known()) mark(writes, Key{&f, nullptr}, in.of(&i));
      }
  }
  forEachUserAccess(m, [&](Access& a, const PointerRoot& root) {
    llvm::Function* f = a.inst->getFunction();
    if (root.kind == PointerRoot::KernelArg || root.kind == PointerRoot::Local) return;
    if (f->getName() == kAsyncCopyLanding) return;  // its writes are the waits' above
    if (!isKernel(*f)) {
      const llvm::GlobalVariable* var = root.kind == PointerRoot::SharedVar ? arrayOf(root.var) : nullptr;
      if (isWrite(a)) writtenByHelpers.insert(var);
      touchedByHelpers.insert(var);
      return;
    }
    const BarrierIntervals& in = intervals.try_emplace(f, *f).first->second;
    if (!in.known()) return;
    const llvm::GlobalVariable* var = root.kind == PointerRoot::SharedVar ? arrayOf(root.var) : nullptr;  // null: any
    if (var) {
      auto* load = llvm::dyn_cast<llvm::LoadInst>(a.inst);
      auto* store = llvm::dyn_cast<llvm::StoreInst>(a.inst);
      bool plain = (load && !load->isAtomic() && !a.atomicRead) || (store && !store->isAtomic());
      byArray[{f, var}].push_back({a.inst, a.ptr, a.width, isWrite(a), plain && a.width});
    }
    if (isWrite(a)) {
      mark(writes, Key{f, var}, in.of(a.inst));
      if (var) arrayWrites.emplace_back(a.inst, var);
      if (var && a.kind == SiteKind::Store) stores.emplace_back(a.inst, var);
    } else {
      if (var) reads.emplace_back(a.inst, var);
      mark(readsOf, Key{f, var}, in.of(a.inst));  // a read of unknown array: a rival of every lone write
    }
  });
  auto rivalsOf = [&](const llvm::Instruction* inst, std::initializer_list<const std::map<Key, llvm::BitVector>*> maps,
                      const llvm::GlobalVariable* var) {
    const llvm::Function* f = inst->getFunction();
    llvm::BitVector rivals(intervals.at(f).of(inst).size());
    for (const auto* map : maps)
      for (const llvm::GlobalVariable* v : {var, static_cast<const llvm::GlobalVariable*>(nullptr)})
        if (auto it = map->find({f, v}); it != map->end()) rivals |= it->second;
    return rivals.anyCommon(intervals.at(f).of(inst));
  };
  IntervalFacts facts;
  for (auto [inst, var] : reads) {
    if (writtenByHelpers.count(var) || writtenByHelpers.count(nullptr)) continue;
    if (!rivalsOf(inst, {&writes}, var)) facts.quietReads.insert(inst);
  }
  // A store is lone where no read shares its intervals and it is its array's only write in them (writes to
  // any array, waits for asynchronous copies included: `writes` under a null array).
  for (auto [inst, var] : stores) {
    if (touchedByHelpers.count(var) || touchedByHelpers.count(nullptr) || rivalsOf(inst, {&readsOf}, var)) continue;
    const BarrierIntervals& in = intervals.at(inst->getFunction());
    auto any = writes.find({inst->getFunction(), nullptr});
    bool alone = any == writes.end() || !any->second.anyCommon(in.of(inst));
    for (auto [other, otherVar] : arrayWrites)
      if (alone && other != inst && otherVar == var && in.of(other).anyCommon(in.of(inst))) alone = false;
    if (alone) facts.loneWrites.insert(inst);
  }
  // Accesses of an array that shares no interval with an access of unknown array or a wait for an
  // asynchronous copy, and that no device function touches.
  std::map<const llvm::Function*, std::unique_ptr<OwnBytes>> own;
  for (auto& [key, accesses] : byArray) {
    auto [f, var] = key;
    if (touchedByHelpers.count(var) || touchedByHelpers.count(nullptr)) continue;
    std::unique_ptr<OwnBytes>& analysis = own[f];
    if (!analysis) analysis = std::make_unique<OwnBytes>(*const_cast<llvm::Function*>(f), intervals.at(f));
    for (const llvm::Instruction* inst : analysis->proven(accesses))
      if (!rivalsOf(inst, {&writes, &readsOf}, nullptr)) facts.ownBytes.insert(inst);
  }
  return facts;
}

// The opcode of an asm statement's first instruction, past braces, labels and .reg declarations.
std::string firstInstruction(const std::string& text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t from = text.find_first_not_of(" \t\n{}", at);
    if (from == std::string::npos) break;
    size_t end = std::min(text.find_first_of(" \t\n;", from), text.size());
    std::string word = text.substr(from, end - from);
    at = end;
    if (word.back() == ':') continue;  // a label ("shared::cta" inside a word is no label)
    if (word == ".reg") {
      at = std::min(text.find(';', from), text.size());
      continue;
    }
    return word;
  }
  return "an asm statement";
}

// Shared arrays that an asm statement outside the catalogue takes as an operand — Hopper's TMA copies
// (cp.async.bulk.tensor), their mbarriers: what such a statement writes there is invisible to the race and
// init checks, which would then report reads of bytes "no thread wrote" and miss its writes.
std::map<const llvm::GlobalVariable*, std::string> sharedArraysBehindUnknownAsm(llvm::Module& m) {
  std::map<const llvm::GlobalVariable*, std::string> found;  // the array and the statement's first word
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || isOwn(f)) continue;
    PointerRoots roots;
    for (llvm::Instruction& i : llvm::instructions(f)) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
      auto* asmStmt = call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
      if (!asmStmt || parsePtx(asmStmt->getAsmString())) continue;
      for (llvm::Value* operand : call->args()) {
        llvm::Value* p = operand->getType()->isPointerTy() ? operand : pointerOperandOf(operand);
        if (!p) continue;
        PointerRoot root = roots.of(p);
        if (root.kind != PointerRoot::SharedVar) continue;
        found.emplace(root.var, firstInstruction(asmStmt->getAsmString()));
      }
    }
  }
  return found;
}

// What a plain store writes, as two 64-bit words (little-endian, as NVPTX and AMDGPU store): the race
// hooks tell a write of the bytes already there from one that changes them. Null where the store is not
// plain or wider than 16 bytes.
struct StoredBits {
  llvm::Value* lo = nullptr;
  llvm::Value* hi = nullptr;
};

StoredBits storedBits(llvm::IRBuilder<>& b, const Access& a) {
  auto* st = llvm::dyn_cast<llvm::StoreInst>(a.inst);
  if (!st || st->isAtomic()) return {};
  llvm::Value* v = st->getValueOperand();
  llvm::Type* t = v->getType();
  const llvm::DataLayout& dl = st->getModule()->getDataLayout();
  if (t->isPointerTy()) {
    v = b.CreatePtrToInt(v, b.getIntNTy(dl.getPointerSizeInBits(t->getPointerAddressSpace())));
    t = v->getType();
  }
  if (!t->isIntOrIntVectorTy() && !t->isFPOrFPVectorTy()) return {};
  uint64_t bits = dl.getTypeSizeInBits(t).getFixedValue();
  if (bits == 0 || bits % 8 || bits != dl.getTypeStoreSizeInBits(t).getFixedValue()) return {};
  if (bits <= 64) return {b.CreateZExt(b.CreateBitCast(v, b.getIntNTy(static_cast<unsigned>(bits))), b.getInt64Ty()),
                          b.getInt64(0)};
  if (bits != 128) return {};
  llvm::Value* words = b.CreateBitCast(v, llvm::FixedVectorType::get(b.getInt64Ty(), 2));
  return {b.CreateExtractElement(words, uint64_t{0}), b.CreateExtractElement(words, uint64_t{1})};
}

}  // namespace

// The hooks' kind argument: TD_ACCESS_* and TD_CHECK_* (checks/race/race_abi.h; race_runtime.cu reads them).
void hookTrackedAccesses(llvm::Module& m, SiteTable& table_, const TrackedChecks& checks) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee sharedHook = hookFunction(m, Hook::race_shared);
  llvm::FunctionCallee globalHook = hookFunction(m, Hook::race_global);
  llvm::DenseMap<const llvm::GlobalVariable*, int> sharedIds = sharedObjectIds(m);
  unsigned flags = (checks.init ? TD_CHECK_INIT : 0u) | (checks.race ? TD_CHECK_RACE : 0u);
  // A buffer the kernel never writes cannot race (read against read never does): its reads need only
  // the init check.
  bool unknownWrite = true;
  std::set<unsigned> writtenArgs = checks.race ? writtenArguments(m, unknownWrite) : std::set<unsigned>{};
  // Only with the sync family on: the intervals assume every thread passes the same barriers, which is
  // what its barrier-divergence check verifies.
  // Their init checks may move out of their loops (hoisted_init_reads.h), with or without the race check.
  IntervalFacts facts = checks.barriersChecked ? intervalFacts(m) : IntervalFacts{};
  const std::set<const llvm::Instruction*>& quietReads = facts.quietReads;
  std::map<llvm::Function*, std::unique_ptr<DisjointWrites>> disjointWrites;
  llvm::FunctionCallee rangeHook = hookFunction(m, Hook::init_shared_strided);
  std::map<llvm::Function*, std::unique_ptr<LoopReadRanges>> loopRanges;
  std::map<const llvm::GlobalVariable*, std::string> opaque = sharedArraysBehindUnknownAsm(m);
  for (auto& [var, statement] : opaque) {
    int id = sharedIds.lookup(var);
    std::string name = id >= 0 && static_cast<size_t>(id) < table_.shared.size() ? table_.shared[id].name
                                                                                 : var->getName().str();
    table_.unchecked.push_back(fmt::format("race and init checks skip the shared array {}: {} (not in the inline-PTX "
                                           "catalogue) takes it, and what it writes there they cannot see",
                                           name, statement));
  }
  std::vector<SourceLoc> unknownRoots;  // accesses through pointers no buffer or array is known for
  forEachUserAccess(m, [&](Access& a, const PointerRoot& root) {
    bool shared = root.shared() || a.ptr->getType()->getPointerAddressSpace() == 3;
    if (!shared && root.kind != PointerRoot::KernelArg) {
      if (root.kind == PointerRoot::Unknown) unknownRoots.push_back(userLocation(*a.inst));
      return;
    }
    if (root.kind == PointerRoot::SharedVar && opaque.count(root.var)) return;
    unsigned accessFlags = flags;
    if (!shared && !unknownWrite && !writtenArgs.count(root.argNo)) accessFlags &= ~TD_CHECK_RACE;
    if (shared && !isWrite(a) && quietReads.count(a.inst)) accessFlags &= ~TD_CHECK_RACE;
    if (!(accessFlags & TD_CHECKS)) return;
    Site s;
    s.kind = a.kind;
    s.loc = userLocation(*a.inst);
    s.size = a.width;
    s.space = shared ? Space::Shared : Space::Global;
    if (root.kind == PointerRoot::SharedVar) s.object = sharedIds.lookup(root.var);
    if (root.kind == PointerRoot::KernelArg) s.object = static_cast<int>(root.argNo);
    unsigned id = table_.add(s);
    // A quiet read in a loop, checked for init alone: checked before the loop, element by element (nothing
    // is placed at the read itself).
    auto* load = llvm::dyn_cast<llvm::LoadInst>(a.inst);
    if (load && accessFlags == TD_CHECK_INIT && !a.atomicRead && a.width && root.kind == PointerRoot::SharedVar &&
        quietReads.count(a.inst)) {
      std::unique_ptr<LoopReadRanges>& ranges = loopRanges[load->getFunction()];
      if (!ranges) ranges = std::make_unique<LoopReadRanges>(*load->getFunction());
      if (std::optional<HoistedRead> h = ranges->of(*load, a.ptr, *root.var)) {
        llvm::IRBuilder<> pre(h->before);
        setHookLocation(pre, a.inst);
        pre.CreateCall(rangeHook, {pre.getInt32(id), llvm::ConstantExpr::getAddrSpaceCast(root.var, ptr),
                                   pre.getInt64(table_.shared[s.object].bytes), h->first, pre.getInt64(h->stride), h->count,
                                   pre.getInt32(a.width)});
        return;
      }
    }
    llvm::IRBuilder<> b(a.inst);
    setHookLocation(b, a.inst);
    llvm::Value* generic = genericPointer(b, a.ptr);
    unsigned kind = a.kind == SiteKind::Atomic ? TD_ACCESS_ATOMIC
                    : isWrite(a)                ? TD_ACCESS_WRITE
                    : a.atomicRead              ? TD_ACCESS_ATOMIC_READ
                                                : TD_ACCESS_READ;
    StoredBits stored = (accessFlags & TD_CHECK_RACE) ? storedBits(b, a) : StoredBits{};
    if (stored.lo) kind |= TD_ACCESS_VALUE;
    llvm::Value* lo = stored.lo ? stored.lo : b.getInt64(0);
    llvm::Value* hi = stored.hi ? stored.hi : b.getInt64(0);
    if (!shared) {
      b.CreateCall(globalHook,
                   {b.getInt32(id), b.getInt32(root.argNo), generic, a.size, b.getInt32(kind | accessFlags), lo, hi});
      return;
    }
    // The array the access belongs to: an access outside it is the bounds check's (and is skipped).
    llvm::Value* obj = llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx, 0));
    llvm::Value* offset = b.getInt32(0);
    uint64_t objBytes = 0;
    if (root.kind == PointerRoot::SharedVar) {
      obj = llvm::ConstantExpr::getAddrSpaceCast(root.var, ptr);
      objBytes = table_.shared[s.object].bytes;
      // The offset in the array, as the index arithmetic computes it: it folds with the access's own
      // GEP, and its known alignment lets the runtime's granule arithmetic fold too.
      llvm::Value* p = a.ptr->stripPointerCasts();
      llvm::Constant* base = p->getType() == root.var->getType()
                                 ? static_cast<llvm::Constant*>(root.var)
                                 : llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(root.var, p->getType());
      offset = b.CreateTrunc(b.CreateSub(b.CreatePtrToInt(p, i64), b.CreatePtrToInt(base, i64)), i32);
    }
    llvm::Value* kindValue = b.getInt32(kind | accessFlags);
    // A lone store whose launch gives each thread bytes of its own (disjoint_writes.h) keeps only its init
    // bookkeeping: under the condition the race check is off (folded where the launch's sizes are constants).
    // So does an access no other thread's meets in its intervals (own_bytes.h), where the block is one row.
    auto* store = llvm::dyn_cast<llvm::StoreInst>(a.inst);
    if ((accessFlags & TD_CHECK_RACE) && facts.ownBytes.count(a.inst)) {
      kindValue = b.CreateSelect(oneRowOfThreads(b), b.getInt32(kind | (accessFlags & ~TD_CHECK_RACE)), kindValue);
    } else if (store && (accessFlags & TD_CHECK_RACE) && root.kind == PointerRoot::SharedVar && facts.loneWrites.count(a.inst)) {
      std::unique_ptr<DisjointWrites>& disjoint = disjointWrites[store->getFunction()];
      if (!disjoint) disjoint = std::make_unique<DisjointWrites>(*store->getFunction());
      if (llvm::Value* own = disjoint->condition(*store, a.ptr, a.width))
        kindValue = b.CreateSelect(own, b.getInt32(kind | (accessFlags & ~TD_CHECK_RACE)), kindValue);
    }
    b.CreateCall(sharedHook, {b.getInt32(id), generic, a.size, kindValue, obj, b.getInt64(objBytes), offset, lo, hi});
  });
  if (!unknownRoots.empty())
    table_.unchecked.push_back(fmt::format(
        "race and init checks skip {} access{} through pointers whose buffer or shared array is not known before the "
        "run (first at {}: a pointer loaded from memory, or a function called through a pointer)",
        unknownRoots.size(), unknownRoots.size() == 1 ? "" : "es", unknownRoots.front().str()));
}


}  // namespace td
