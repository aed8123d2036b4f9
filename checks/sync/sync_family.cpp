// Family "sync": threads of one barrier generation at different barriers, threads exiting while others
// wait, warp-collective masks naming absent lanes; on the GPU, who waits where when a launch hangs.
#include "model/family.h"
#include "checks/sync/ignored_barrier.h"
#include "checks/sync/sync_findings.h"
#include "instrument/pipeline.h"
#include "checks/race/access_tracking.h"
#include "checks/sync/sync_regions.h"
#include "checks/sync/wait_board.h"

namespace td {

std::vector<Rule> syncRules();  // sync_rules.cpp

namespace {

// Barriers the target does not execute (its profile's ignored statements), said before the run.
bool ignoredBarriers(const BeforeLaunch& in, std::vector<Finding>& into) {
  for (const IgnoredStatement& s : in.module.ignored) into.push_back(ignoredStatementFinding(s, in.target));
  return true;
}

}  // namespace

Family syncFamily() {
  Family f;
  f.name = "sync";
  f.rules = syncRules();
  f.summary = "divergent barriers, exits while others wait, bad warp masks; where threads wait in a hang";
  f.regions = syncCountRegions();
  f.regions.push_back({TD_REGION_BARRIER_SLOTS, regionOf(TD_SCOPE_BLOCK, TD_REGION_PREFER_SHARED, sizeof(td_block_checks))});
  f.regions.push_back({TD_REGION_WAIT_BOARD, regionOf(TD_SCOPE_THREAD, TD_REGION_HANG_READBACK, 4)});
  f.deviceSources = {"checks/sync/sync_runtime.cu"};
  f.beforeLaunch = ignoredBarriers;
  f.afterLaunch = waitersFromReadback;
  f.instrument = trackAccessesAndSync;
  f.recordKinds = {TD_KIND_BARRIER_DIVERGENCE, TD_KIND_WARP_MASK};
  f.decode = syncFinding;
  return f;
}

}  // namespace td
