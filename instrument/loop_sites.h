// Progress marks at loop headers: each loop's header notes its site in the thread (a store on the CPU,
// nothing on the GPU), so a kernel stopped by --timeout is reported at the loop that did not end.
#pragma once
#include <llvm/IR/PassManager.h>

#include "model/site_table.h"

namespace td {

class LoopSitesPass : public llvm::PassInfoMixin<LoopSitesPass> {
 public:
  explicit LoopSitesPass(SiteTable& table) : table_(table) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  SiteTable& table_;
};

}  // namespace td
