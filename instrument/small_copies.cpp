#include "instrument/small_copies.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace td {

void splitSmallCopies(llvm::Module& m) {
  std::vector<llvm::MemTransferInst*> copies;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* copy = llvm::dyn_cast<llvm::MemTransferInst>(&i); copy && !copy->isVolatile())
          if (auto* len = llvm::dyn_cast<llvm::ConstantInt>(copy->getLength()))
            if (uint64_t n = len->getZExtValue(); n == 1 || n == 2 || n == 4 || n == 8 || n == 16) copies.push_back(copy);
  for (llvm::MemTransferInst* copy : copies) {
    uint64_t n = llvm::cast<llvm::ConstantInt>(copy->getLength())->getZExtValue();
    llvm::IRBuilder<> b(copy);
    b.SetCurrentDebugLocation(copy->getDebugLoc());
    llvm::Type* t = n == 16 ? static_cast<llvm::Type*>(llvm::FixedVectorType::get(b.getInt32Ty(), 4))
                            : b.getIntNTy(static_cast<unsigned>(8 * n));
    llvm::LoadInst* value = b.CreateAlignedLoad(t, copy->getRawSource(), copy->getSourceAlign().valueOrOne());
    b.CreateAlignedStore(value, copy->getRawDest(), copy->getDestAlign().valueOrOne());
    copy->eraseFromParent();
  }
}

}  // namespace td
