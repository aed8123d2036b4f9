#include "instrument/shared_objects.h"

#include <algorithm>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>

namespace td {

std::string variableName(const llvm::GlobalVariable& gv) {
  std::string d = llvm::demangle(gv.getName().str());
  size_t colon = d.rfind("::");
  return colon == std::string::npos ? d : d.substr(colon + 2);
}

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

}  // namespace td
