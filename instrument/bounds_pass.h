// Bounds and alignment checks (check family "bounds"): every load, store, atomic and memory intrinsic
// whose pointer comes from a kernel argument or a __shared__ array is guarded by a call to the device
// runtime's __td_check_global / __td_check_shared; a failing check reports and skips the access
// (a load yields zero), so one run finds every bad site.
#pragma once
#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/PassManager.h>

#include "instrument/site_table.h"

namespace td {

class BoundsCheckPass : public llvm::PassInfoMixin<BoundsCheckPass> {
 public:
  explicit BoundsCheckPass(SiteTable& table) : table_(table) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  SiteTable& table_;
};

// The module's __shared__ variables, numbered in module order: registerSharedObjects puts them in the
// site table once, before any pass runs; sharedObjectIds gives each variable's id.
void registerSharedObjects(llvm::Module& m, SiteTable& table);
llvm::DenseMap<const llvm::GlobalVariable*, int> sharedObjectIds(llvm::Module& m);

}  // namespace td
