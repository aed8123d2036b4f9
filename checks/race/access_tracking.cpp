#include "checks/race/access_tracking.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include "checks/race/race_pass.h"

namespace td {

void trackAccessesAndSync(llvm::Module& m, SiteTable& sites, const std::set<std::string>& enabled, const FamilySettings&) {
  llvm::ModuleAnalysisManager mam;
  RacePass(sites, enabled.count("race") != 0, enabled.count("init") != 0, enabled.count("sync") != 0).run(m, mam);
}

}  // namespace td
