#include "checks/race/access_history_family.h"

#include "checks/race/access_tracking.h"
#include "checks/race/race_abi.h"
#include "checks/race/race_findings.h"
#include "model/regions.h"
#include "checks/sync/sync_regions.h"

namespace td {

Family accessHistoryFamily() {
  Family f;
  f.regions = syncCountRegions();  // the hooks count synchronisation too
  f.regions.push_back({TD_REGION_SHARED_HISTORY, regionOf(TD_SCOPE_BLOCK, TD_REGION_PREFER_SHARED, 0, sizeof(td_granule))});
  f.regions.push_back({TD_REGION_SHARED_WRITTEN, regionOf(TD_SCOPE_BLOCK, TD_REGION_PREFER_SHARED, 0, sizeof(unsigned int), 0, 0,
                                                          TD_WRITTEN_CHUNK_SHIFT)});
  f.regions.push_back({TD_REGION_BUFFER_HISTORY, regionOf(TD_SCOPE_BUFFER, 0, 0, sizeof(td_granule), 0, 0)});
  f.deviceSources = {"checks/race/race_runtime.cu", "checks/sync/sync_runtime.cu"};
  f.instrument = trackAccessesAndSync;
  f.decode = raceFinding;
  return f;
}

}  // namespace td
