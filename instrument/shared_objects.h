// The module's __shared__ variables, numbered in module order, for every pass and executor that names
// them: registerSharedObjects puts them in the site table once, before any pass runs (name as written,
// dimensions, element size, alignment, dynamic or not); sharedObjectIds gives each variable its id there.
#pragma once
#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/GlobalVariable.h>
#include <string>

#include "model/site_table.h"

namespace llvm {
class Module;
}

namespace td {

void registerSharedObjects(llvm::Module& m, SiteTable& table);
llvm::DenseMap<const llvm::GlobalVariable*, int> sharedObjectIds(llvm::Module& m);
// A variable's name as written: "As" for the mangled name of a kernel's static `__shared__ half As[...]`.
std::string variableName(const llvm::GlobalVariable& gv);

}  // namespace td
