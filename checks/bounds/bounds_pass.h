// Bounds and alignment checks (check family "bounds"): every load, store, atomic and memory intrinsic
// whose pointer comes from a kernel argument or a __shared__ array is guarded by a call to the device
// runtime's __td_check_global / __td_check_shared; a failing check reports and skips the access
// (a load yields zero), so one run finds every bad site.
#pragma once
#include <llvm/IR/PassManager.h>

#include "model/site_table.h"

namespace td {

class BoundsCheckPass : public llvm::PassInfoMixin<BoundsCheckPass> {
 public:
  explicit BoundsCheckPass(SiteTable& table) : table_(table) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  SiteTable& table_;
};

}  // namespace td
