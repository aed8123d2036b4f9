#include "instrument/bounds_pass.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "instrument/accesses.h"
#include "instrument/shared_objects.h"
#include "instrument/pointer_roots.h"
#include "instrument/ptx_catalogue.h"

namespace td {

namespace {

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

  forEachUserAccess(m, [&](Access& a, const PointerRoot& root) {
    Site s;
    s.kind = a.kind;
    s.loc = userLocation(*a.inst);
    s.size = a.width;
    s.align = a.align;
    // A thread's local arrays (register tiles that did not fit registers) are private and sized by the
    // compiler; checking them would only keep them out of registers.
    if (root.kind == PointerRoot::Local) return;
    unsigned addrSpace = a.ptr->getType()->getPointerAddressSpace();
    llvm::IRBuilder<> b(a.inst);
    setHookLocation(b, a.inst);
    llvm::Value* generic = genericPointer(b, a.ptr);
    llvm::Value* ok = nullptr;
    if (root.kind == PointerRoot::KernelArg) {
      s.space = Space::Global;
      s.object = static_cast<int>(root.argNo);
      unsigned id = table_.add(s);
      ok = b.CreateCall(checkGlobal, {llvm::ConstantInt::get(i32, id), llvm::ConstantInt::get(i32, root.argNo), generic,
                                      a.size, llvm::ConstantInt::get(i32, a.align)});
      tagSite(*a.inst, id);
    } else if (root.shared() || addrSpace == 3) {
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
      return;
    }
    // A warp-collective statement cannot be skipped by one lane alone: it is reported, not skipped.
    if (isWarpCollectiveAsm(a.inst)) return;
    if (!guardBySelect(a.inst, ok, sink)) guard(a.inst, ok);
  });
  return llvm::PreservedAnalyses::none();
}

}  // namespace td
