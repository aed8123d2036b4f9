#include "instrument/launch_bounds.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace td {

LaunchBounds launchBoundsOf(const llvm::Function& kernel) {
  LaunchBounds lb;
  lb.kernel = definitionLocation(kernel);
  const llvm::NamedMDNode* annotations = kernel.getParent()->getNamedMetadata("nvvm.annotations");
  if (!annotations) return lb;
  int64_t dims[3] = {1, 1, 1};
  bool said = false;
  for (const llvm::MDNode* n : annotations->operands()) {
    if (n->getNumOperands() < 3) continue;
    auto* fn = llvm::mdconst::dyn_extract_or_null<llvm::Function>(n->getOperand(0));
    auto* key = llvm::dyn_cast_or_null<llvm::MDString>(n->getOperand(1));
    auto* value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(n->getOperand(2));
    if (fn != &kernel || !key || !value) continue;
    llvm::StringRef k = key->getString();
    if (!k.consume_front("maxntid") || k.size() != 1 || k[0] < 'x' || k[0] > 'z') continue;
    dims[k[0] - 'x'] = value->getSExtValue();
    said = true;
  }
  if (said) lb.maxThreads = dims[0] * dims[1] * dims[2];
  return lb;
}

}  // namespace td
