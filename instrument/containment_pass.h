// Containment: a checked kernel's accesses stay inside memory its launch gave it — its buffers, the block's
// shared window, the thread's own stack, the module's own variables — whichever check families run
// (docs/security.md). Runs after the families: an access a check already confines (the bounds family's,
// instrument/access_guard.h) is left to it; every other one is checked by a device-runtime hook
// (runtime/device/td_contain.cuh), and a wild one is recorded (TD_KIND_WILD_ACCESS) and skipped. A call
// through a pointer must reach one of the module's functions whose address the kernel takes.
// Warp-collective statements (ldmatrix, stmatrix) cannot be skipped by one lane; the executor that runs
// them confines their addresses itself.
#pragma once
#include <llvm/IR/PassManager.h>

#include "model/site_table.h"

namespace td {

// TILE_DOCTOR_BENCH_UNCONTAINED=1: modules without containment, which the CPU executor then runs — only for
// bench/ to measure what containment costs (docs/performance.md); never set where kernels are not trusted.
bool containmentOffForBenchmarks();

class ContainmentPass : public llvm::PassInfoMixin<ContainmentPass> {
 public:
  explicit ContainmentPass(SiteTable& table) : table_(table) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  SiteTable& table_;
};

}  // namespace td
