#include "instrument/access_guard.h"
#include "instrument/hook_functions.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

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

llvm::GlobalVariable* accessSink(llvm::Module& m) {
  if (llvm::GlobalVariable* sink = m.getNamedGlobal(globalSymbol(OwnGlobal::sink))) return sink;
  llvm::Type* sinkType = llvm::ArrayType::get(llvm::Type::getInt64Ty(m.getContext()), 8);
  auto* sink = new llvm::GlobalVariable(m, sinkType, false, llvm::GlobalValue::ExternalLinkage, nullptr, globalSymbol(OwnGlobal::sink),
                                        nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  sink->setAlignment(llvm::Align(64));
  return sink;
}

void guardAccess(llvm::Instruction* inst, llvm::Value* ok) {
  if (!guardBySelect(inst, ok, accessSink(*inst->getModule()))) guard(inst, ok);
}

void noteConfined(llvm::Instruction& inst) {
  llvm::LLVMContext& ctx = inst.getContext();
  llvm::Metadata* n = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), confinedAccesses(inst) + 1));
  inst.setMetadata("td.confined", llvm::MDNode::get(ctx, {n}));
}

unsigned confinedAccesses(const llvm::Instruction& inst) {
  llvm::MDNode* md = inst.getMetadata("td.confined");
  if (!md || md->getNumOperands() != 1) return 0;
  auto* c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(0));
  return c ? static_cast<unsigned>(c->getZExtValue()) : 0;
}

}  // namespace td
