#include "instrument/fp_contraction.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace td {

namespace {

bool floatOrDouble(llvm::Type* t) {
  llvm::Type* s = t->getScalarType();
  return s->isFloatTy() || s->isDoubleTy();
}

// A product the back end could fuse into `user`: marked contract and in the same block (the back end
// combines one block at a time).
llvm::BinaryOperator* contractedProduct(llvm::Value* v, const llvm::Instruction& user) {
  auto* mul = llvm::dyn_cast<llvm::BinaryOperator>(v);
  return mul && mul->getOpcode() == llvm::Instruction::FMul && mul->hasAllowContract() &&
                 mul->getParent() == user.getParent()
             ? mul
             : nullptr;
}

// a*b + c, a*b - c or c - a*b as one fma. Where both operands are products, the one with fewer uses is
// fused (ties: the first), as LLVM's DAG combiner does for NVPTX.
bool fuse(llvm::BinaryOperator& op) {
  bool sub = op.getOpcode() == llvm::Instruction::FSub;
  if ((!sub && op.getOpcode() != llvm::Instruction::FAdd) || !op.hasAllowContract() || !floatOrDouble(op.getType()))
    return false;
  llvm::BinaryOperator* first = contractedProduct(op.getOperand(0), op);
  llvm::BinaryOperator* second = contractedProduct(op.getOperand(1), op);
  int productAt = first && !(second && first->getNumUses() > second->getNumUses()) ? 0 : second ? 1 : -1;
  if (productAt < 0) return false;
  llvm::BinaryOperator* mul = contractedProduct(op.getOperand(productAt), op);
  llvm::Value* addend = op.getOperand(1 - productAt);
  llvm::IRBuilder<> b(&op);
  b.setFastMathFlags(op.getFastMathFlags());
  llvm::Value* x = mul->getOperand(0);
  if (sub && productAt == 0) addend = b.CreateFNeg(addend);  // a*b - c
  if (sub && productAt == 1) x = b.CreateFNeg(x);            // c - a*b = (-a)*b + c
  llvm::Value* fma = b.CreateIntrinsic(llvm::Intrinsic::fma, {op.getType()}, {x, mul->getOperand(1), addend});
  if (auto* i = llvm::dyn_cast<llvm::Instruction>(fma)) i->setDebugLoc(op.getDebugLoc());
  op.replaceAllUsesWith(fma);
  op.eraseFromParent();
  if (mul->use_empty()) mul->eraseFromParent();
  return true;
}

}  // namespace

void settleContraction(llvm::Module& m) {
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f) {
      for (llvm::Instruction& i : llvm::make_early_inc_range(bb)) {
        if (auto* op = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
          fuse(*op);  // may erase i
          continue;
        }
        // llvm.fmuladd leaves fusing to the target (fma on the GPU; on a host CPU, only where it has FMA)
        if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
            call && call->getIntrinsicID() == llvm::Intrinsic::fmuladd && floatOrDouble(call->getType()))
          call->setCalledFunction(llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::fma, {call->getType()}));
      }
      for (llvm::Instruction& i : bb)
        if (llvm::isa<llvm::FPMathOperator>(&i) && floatOrDouble(i.getType()) && i.hasAllowContract())
          i.setHasAllowContract(false);
    }
}

}  // namespace td
