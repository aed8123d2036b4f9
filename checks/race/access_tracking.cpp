#include "checks/race/access_tracking.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include "checks/race/race_pass.h"
#include "checks/sync/sync_counting.h"
#include "checks/sync/sync_pass.h"

namespace td {

// In this order, so the hooks before one call run as the runtime expects: the access's, then the barrier
// wait, then the release.
void trackAccessesAndSync(llvm::Module& m, SiteTable& sites, const std::set<std::string>& enabled, const FamilySettings&) {
  TrackedChecks checks{enabled.count("race") != 0, enabled.count("init") != 0, enabled.count("sync") != 0};
  if (checks.race || checks.init) hookTrackedAccesses(m, sites, checks);
  if (enabled.count("sync")) hookBarriersExitsAndMasks(m, sites);
  countSynchronisation(m);
}

}  // namespace td
