#include "instrument/local_alignment.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace td {

void alignLocalArraysForTheirAccesses(llvm::Module& m) {
  const llvm::DataLayout& dl = m.getDataLayout();
  // The array must be aligned for the access at its offset: a constant offset needs only what it shares
  // with the access's alignment, an index computed at run time the access's whole alignment.
  auto enforce = [&](llvm::Value* p, llvm::Align a) {
    auto* slot = llvm::dyn_cast<llvm::AllocaInst>(llvm::getUnderlyingObject(p));
    if (!slot) return;
    llvm::APInt offset(dl.getIndexTypeSizeInBits(p->getType()), 0);
    const llvm::Value* base = p->stripAndAccumulateConstantOffsets(dl, offset, /*AllowNonInbounds=*/true);
    llvm::Align needed = base == slot ? llvm::commonAlignment(a, offset.getZExtValue()) : a;
    if (slot->getAlign() < needed) slot->setAlignment(needed);
  };
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) enforce(ld->getPointerOperand(), ld->getAlign());
        else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) enforce(st->getPointerOperand(), st->getAlign());
        else if (auto* mt = llvm::dyn_cast<llvm::MemTransferInst>(&i)) {
          if (auto a = mt->getDestAlign()) enforce(mt->getRawDest(), *a);
          if (auto a = mt->getSourceAlign()) enforce(mt->getRawSource(), *a);
        }
      }
}

}  // namespace td
