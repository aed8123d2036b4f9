#include "instrument/bounds_pass.h"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "instrument/pointer_roots.h"
#include "instrument/ptx_catalogue.h"

namespace td {

namespace {

std::string variableName(const llvm::GlobalVariable& gv) {
  std::string d = llvm::demangle(gv.getName().str());
  size_t colon = d.rfind("::");
  return colon == std::string::npos ? d : d.substr(colon + 2);
}

struct Access {
  llvm::Instruction* inst;
  llvm::Value* ptr;
  llvm::Value* size;  // i32
  unsigned align;
  SiteKind kind;
  unsigned width;     // bytes, 0 when only known at run time
};

// The alignment the IR promises for the access. The GPU back end relies on it (it merges neighbouring
// scalar accesses into one vector access when the first claims 16 bytes), so an address that breaks the
// promise faults on the GPU even where each scalar access alone would be fine. Vector accesses are at
// most 16 bytes wide on NVIDIA GPUs.
unsigned requiredAlign(uint64_t, llvm::Align declared) {
  return static_cast<unsigned>(std::min<uint64_t>(declared.value(), 16));
}

// The pointer an integer address operand of inline PTX stands for (cvta.to.shared values, plus byte
// offsets): rebuilt as a generic pointer just before `at`, or nullptr when the integer has no such origin.
bool leadsToPointer(llvm::Value* v) {
  for (int depth = 0; depth < 16; ++depth) {
    if (llvm::isa<llvm::PtrToIntOperator>(v)) return true;
    auto* op = llvm::dyn_cast<llvm::Operator>(v);
    if (!op) return false;
    unsigned code = op->getOpcode();
    if (code == llvm::Instruction::Trunc || code == llvm::Instruction::ZExt || code == llvm::Instruction::SExt) v = op->getOperand(0);
    else if (code == llvm::Instruction::Add || code == llvm::Instruction::Or)
      return leadsToPointer(op->getOperand(0)) || leadsToPointer(op->getOperand(1));
    else return false;
  }
  return false;
}

llvm::Value* pointerBehind(llvm::Value* v, llvm::Instruction* at) {
  llvm::SmallVector<llvm::Value*, 4> offsets;
  for (int depth = 0; depth < 16; ++depth) {
    auto* op = llvm::dyn_cast<llvm::Operator>(v);
    unsigned code = op ? op->getOpcode() : 0;
    if (op && !llvm::isa<llvm::PtrToIntOperator>(v) &&
        (code == llvm::Instruction::Trunc || code == llvm::Instruction::ZExt || code == llvm::Instruction::SExt)) {
      v = op->getOperand(0);
    } else if (auto* bin = op; bin && (code == llvm::Instruction::Add || code == llvm::Instruction::Or)) {
      // The side that leads to a pointer is the base; the other an offset.
      bool leftIsBase = leadsToPointer(bin->getOperand(0));
      llvm::Value* base = leftIsBase ? bin->getOperand(0) : bin->getOperand(1);
      offsets.push_back(leftIsBase ? bin->getOperand(1) : bin->getOperand(0));
      v = base;
    } else if (auto* p2i = llvm::dyn_cast<llvm::PtrToIntOperator>(v)) {
      llvm::IRBuilder<> b(at);
      llvm::Value* p = p2i->getPointerOperand();
      llvm::Type* generic = llvm::PointerType::get(at->getContext(), 0);
      if (p->getType() != generic) p = b.CreateAddrSpaceCast(p, generic);
      for (llvm::Value* off : offsets) p = b.CreateGEP(b.getInt8Ty(), p, b.CreateSExtOrTrunc(off, b.getInt64Ty()));
      return p;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

bool isWarpCollectiveAsm(llvm::Instruction* i) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(i);
  if (!call || !llvm::isa<llvm::InlineAsm>(call->getCalledOperand())) return false;
  auto st = parsePtx(llvm::cast<llvm::InlineAsm>(call->getCalledOperand())->getAsmString());
  return st && (st->op == PtxOp::LdMatrix || st->op == PtxOp::StMatrix || st->op == PtxOp::Mma);
}

void collectAccesses(llvm::Function& f, std::vector<Access>& out) {
  const llvm::DataLayout& dl = f.getParent()->getDataLayout();
  llvm::Type* i32 = llvm::Type::getInt32Ty(f.getContext());
  auto fixed = [&](llvm::Instruction* i, llvm::Value* p, llvm::Type* t, llvm::Align a, SiteKind k) {
    uint64_t w = dl.getTypeStoreSize(t);
    out.push_back({i, p, llvm::ConstantInt::get(i32, w), requiredAlign(w, a), k, static_cast<unsigned>(w)});
  };
  for (llvm::BasicBlock& bb : f) {
    for (llvm::Instruction& i : bb) {
      if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) fixed(ld, ld->getPointerOperand(), ld->getType(), ld->getAlign(), SiteKind::Load);
      else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i))
        fixed(st, st->getPointerOperand(), st->getValueOperand()->getType(), st->getAlign(), SiteKind::Store);
      else if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i))
        fixed(rmw, rmw->getPointerOperand(), rmw->getValOperand()->getType(), rmw->getAlign(), SiteKind::Atomic);
      else if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i))
        fixed(cx, cx->getPointerOperand(), cx->getNewValOperand()->getType(), cx->getAlign(), SiteKind::Atomic);
      else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i); call && llvm::isa<llvm::InlineAsm>(call->getCalledOperand())) {
        // Memory effects of catalogue statements: cp.async reads global [src] and writes shared [dst];
        // ldmatrix reads one 16-byte row per lane.
        auto st = parsePtx(llvm::cast<llvm::InlineAsm>(call->getCalledOperand())->getAsmString());
        if (!st) continue;
        auto add = [&](llvm::Value* p, unsigned w, SiteKind k) {
          if (p) out.push_back({call, p, llvm::ConstantInt::get(i32, w), w, k, w});
        };
        if (st->op == PtxOp::CpAsync && call->arg_size() >= 2) {
          unsigned bytes = static_cast<unsigned>(st->count);
          if (st->sizeOperand >= 0 && static_cast<unsigned>(st->sizeOperand) < call->arg_size())
            if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(st->sizeOperand)))
              bytes = static_cast<unsigned>(c->getZExtValue());
          llvm::Value* src = call->getArgOperand(1);
          add(src->getType()->isPointerTy() ? src : pointerBehind(src, call), bytes, SiteKind::Load);
          if (st->srcSize && static_cast<unsigned>(st->srcSizeOperand) < call->arg_size()) {
            // With a src-size operand only that many bytes are read (the rest is zero-filled).
            llvm::IRBuilder<> b(call);
            out.back().size = b.CreateZExtOrTrunc(call->getArgOperand(st->srcSizeOperand), i32);
          }
          llvm::Value* dst = call->getArgOperand(0);
          add(dst->getType()->isPointerTy() ? dst : pointerBehind(dst, call), bytes, SiteKind::Store);
        } else if ((st->op == PtxOp::LdMatrix || st->op == PtxOp::StMatrix) && call->arg_size() >= 1) {
          add(pointerBehind(call->getArgOperand(0), call), 16, st->op == PtxOp::LdMatrix ? SiteKind::Load : SiteKind::Store);
        }
      } else if (auto* mi = llvm::dyn_cast<llvm::MemIntrinsic>(&i)) {
        llvm::IRBuilder<> b(mi);
        llvm::Value* len = b.CreateZExtOrTrunc(mi->getLength(), i32);
        auto* c = llvm::dyn_cast<llvm::ConstantInt>(mi->getLength());
        unsigned w = c ? static_cast<unsigned>(c->getZExtValue()) : 0;
        auto align = [&](llvm::MaybeAlign a) { return requiredAlign(w, a.valueOrOne()); };
        out.push_back({mi, mi->getRawDest(), len, align(mi->getDestAlign()), SiteKind::MemIntrinsic, w});
        if (auto* mt = llvm::dyn_cast<llvm::MemTransferInst>(mi))
          out.push_back({mi, mt->getRawSource(), len, align(mt->getSourceAlign()), SiteKind::MemIntrinsic, w});
      }
    }
  }
}

// Splits around `inst` so it runs only when `ok` is non-zero; a skipped value-producing access yields zero.
void guard(llvm::Instruction* inst, llvm::Value* ok) {
  llvm::IRBuilder<> b(inst);
  llvm::Value* cond = b.CreateICmpNE(ok, llvm::ConstantInt::get(ok->getType(), 0));
  llvm::BasicBlock* before = inst->getParent();
  llvm::Instruction* term = llvm::SplitBlockAndInsertIfThen(cond, inst, false);
  llvm::BasicBlock* thenBB = term->getParent();
  llvm::BasicBlock* after = term->getSuccessor(0);
  inst->moveBefore(term);
  if (!inst->getType()->isVoidTy()) {
    llvm::PHINode* phi = llvm::PHINode::Create(inst->getType(), 2, "", &*after->begin());
    inst->replaceAllUsesWith(phi);
    phi->addIncoming(inst, thenBB);
    phi->addIncoming(llvm::Constant::getNullValue(inst->getType()), before);
  }
}

// Branch-free guard for plain loads and stores through generic pointers: a failed check redirects the
// access to the runtime's sink (__td_sink) and a load yields zero. No control flow is added, so the
// optimiser keeps scheduling and vectorising the kernel's loops as before.
bool guardBySelect(llvm::Instruction* inst, llvm::Value* ok, llvm::GlobalVariable* sink) {
  auto* ld = llvm::dyn_cast<llvm::LoadInst>(inst);
  auto* st = llvm::dyn_cast<llvm::StoreInst>(inst);
  if (!(ld && ld->isSimple()) && !(st && st->isSimple())) return false;
  llvm::Value* p = ld ? ld->getPointerOperand() : st->getPointerOperand();
  if (p->getType()->getPointerAddressSpace() != 0) return false;
  llvm::Type* t = ld ? ld->getType() : st->getValueOperand()->getType();
  if (inst->getModule()->getDataLayout().getTypeStoreSize(t) > 64) return false;
  llvm::IRBuilder<> b(inst);
  llvm::Value* cond = b.CreateICmpNE(ok, llvm::ConstantInt::get(ok->getType(), 0));
  llvm::Value* sinkPtr = llvm::ConstantExpr::getAddrSpaceCast(sink, p->getType());
  llvm::Value* safe = b.CreateSelect(cond, p, sinkPtr);
  if (ld) {
    ld->setOperand(0, safe);
    b.SetInsertPoint(ld->getNextNode());
    llvm::Value* v = b.CreateSelect(cond, ld, llvm::Constant::getNullValue(t));
    ld->replaceUsesWithIf(v, [&](llvm::Use& u) { return u.getUser() != v; });
  } else {
    st->setOperand(1, safe);
  }
  return true;
}

}  // namespace

llvm::DenseMap<const llvm::GlobalVariable*, int> sharedObjectIds(llvm::Module& m) {
  llvm::DenseMap<const llvm::GlobalVariable*, int> ids;
  int id = 0;
  for (llvm::GlobalVariable& gv : m.globals())
    if (gv.getAddressSpace() == 3) ids[&gv] = id++;
  return ids;
}

void registerSharedObjects(llvm::Module& m, SiteTable& table) {
  const llvm::DataLayout& dl = m.getDataLayout();
  for (llvm::GlobalVariable& gv : m.globals()) {
    if (gv.getAddressSpace() != 3) continue;
    SharedObject o;
    o.name = variableName(gv);
    llvm::Type* t = gv.getValueType();
    while (auto* at = llvm::dyn_cast<llvm::ArrayType>(t)) {
      o.dims.push_back(at->getNumElements());
      t = at->getElementType();
    }
    o.elemSize = static_cast<unsigned>(std::max<uint64_t>(1, dl.getTypeAllocSize(t)));
    o.bytes = dl.getTypeAllocSize(gv.getValueType());
    o.align = static_cast<unsigned>(gv.getAlign().valueOrOne().value());
    o.dynamic = gv.isDeclaration() || o.bytes == 0;
    if (o.dynamic) { o.dims.clear(); o.bytes = 0; }
    table.shared.push_back(o);
  }
}

llvm::PreservedAnalyses BoundsCheckPass::run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  llvm::FunctionCallee checkGlobal = m.getOrInsertFunction("__td_check_global", i32, i32, i32, ptr, i32, i32);
  llvm::FunctionCallee checkShared = m.getOrInsertFunction("__td_check_shared", i32, i32, ptr, i32, i32, ptr, i64, i32);
  llvm::FunctionCallee checkWindow = m.getOrInsertFunction("__td_check_shared_window", i32, i32, ptr, i32, i32);
  llvm::FunctionCallee unchecked = m.getOrInsertFunction("__td_unchecked_access", llvm::Type::getVoidTy(ctx), i32);

  llvm::DenseMap<const llvm::GlobalVariable*, int> sharedIds = sharedObjectIds(m);
  // Where skipped accesses go (defined by the device runtime): 64 bytes of global memory.
  llvm::Type* sinkType = llvm::ArrayType::get(i64, 8);
  auto* sink = new llvm::GlobalVariable(m, sinkType, false, llvm::GlobalValue::ExternalLinkage, nullptr, "__td_sink",
                                        nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  sink->setAlignment(llvm::Align(64));

  for (llvm::Function& f : m) {
    if (f.isDeclaration() || f.getName().starts_with("__td_")) continue;
    std::vector<Access> accesses;
    collectAccesses(f, accesses);
    PointerRoots roots(isKernel(f));
    for (Access& a : accesses) {
      Site s;
      s.kind = a.kind;
      s.loc = userLocation(*a.inst);
      s.size = a.width;
      s.align = a.align;
      PointerRoot root = roots.of(a.ptr);
      // A thread's local arrays (register tiles that did not fit registers) are private and sized by the
      // compiler; checking them would only keep them out of registers.
      if (root.kind == PointerRoot::Local) continue;
      unsigned addrSpace = a.ptr->getType()->getPointerAddressSpace();
      llvm::IRBuilder<> b(a.inst);
      // Hook calls get a location (the verifier wants one on inlinable calls in functions with debug info).
      if (a.inst->getDebugLoc()) b.SetCurrentDebugLocation(a.inst->getDebugLoc());
      else if (llvm::DISubprogram* sp = f.getSubprogram()) b.SetCurrentDebugLocation(llvm::DILocation::get(ctx, 0, 0, sp));
      llvm::Value* generic = addrSpace == 0 ? a.ptr : b.CreateAddrSpaceCast(a.ptr, ptr);
      llvm::Value* ok = nullptr;
      if (root.kind == PointerRoot::KernelArg) {
        s.space = Space::Global;
        s.object = static_cast<int>(root.argNo);
        unsigned id = table_.add(s);
        ok = b.CreateCall(checkGlobal, {llvm::ConstantInt::get(i32, id), llvm::ConstantInt::get(i32, root.argNo), generic,
                                        a.size, llvm::ConstantInt::get(i32, a.align)});
        tagSite(*a.inst, id);
      } else if (root.kind == PointerRoot::SharedVar || addrSpace == 3) {
        s.space = Space::Shared;
        if (root.kind == PointerRoot::SharedVar) s.object = sharedIds.lookup(root.var);
        unsigned id = table_.add(s);
        llvm::Value* site = llvm::ConstantInt::get(i32, id);
        llvm::Value* align = llvm::ConstantInt::get(i32, a.align);
        if (root.kind == PointerRoot::SharedVar)
          ok = b.CreateCall(checkShared, {site, generic, a.size, align, llvm::ConstantExpr::getAddrSpaceCast(root.var, ptr),
                                          llvm::ConstantInt::get(i64, table_.shared[s.object].bytes),
                                          llvm::ConstantInt::get(i32, table_.shared[s.object].align)});
        else
          ok = b.CreateCall(checkWindow, {site, generic, a.size, align});
        tagSite(*a.inst, id);
      } else {
        unsigned id = table_.add(s);
        b.CreateCall(unchecked, {llvm::ConstantInt::get(i32, id)});
        tagSite(*a.inst, id);
        continue;
      }
      // A warp-collective statement cannot be skipped by one lane alone: it is reported, not skipped.
      if (isWarpCollectiveAsm(a.inst)) continue;
      if (!guardBySelect(a.inst, ok, sink)) guard(a.inst, ok);
    }
  }
  return llvm::PreservedAnalyses::none();
}

}  // namespace td
