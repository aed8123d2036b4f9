// Device code that stops the kernel: CUDA's assert (a call to __assertfail) and __trap (llvm.trap, or
// the inline "trap;" clang's headers write). Each becomes a site, and a hook call before it reports the
// thread that got there, so the collector can name the assertion, the thread and the line; the stop
// itself stays (the GPU traps; the CPU executor ends the grid as the GPU does).
#pragma once
#include <llvm/IR/PassManager.h>

#include "model/site_table.h"

namespace td {

class StopSitesPass : public llvm::PassInfoMixin<StopSitesPass> {
 public:
  explicit StopSitesPass(SiteTable& table) : table_(table) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  SiteTable& table_;
};

}  // namespace td
