// Gives every barrier, warp collective and inline-asm statement a site id (metadata !td.site), so the
// executors can say where a thread waits or which unsupported statement stopped a run.
#pragma once
#include <llvm/IR/PassManager.h>

#include "model/site_table.h"

namespace td {

class SyncSitesPass : public llvm::PassInfoMixin<SyncSitesPass> {
 public:
  explicit SyncSitesPass(SiteTable& table) : table_(table) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  SiteTable& table_;
};

}  // namespace td
