// The shadows of the race and init families, which both declare alike.
#pragma once
#include <utility>
#include <vector>

#include "checks/family.h"
#include "checks/race/race_abi.h"
#include "checks/regions.h"
#include "checks/sync/sync_regions.h"

namespace td {

inline std::vector<std::pair<unsigned, td_region>> shadowRegions() {
  std::vector<std::pair<unsigned, td_region>> r = syncCountRegions();  // the hooks count synchronisation too
  r.push_back({TD_REGION_SHARED_SHADOW, regionOf(TD_SCOPE_BLOCK, TD_REGION_PREFER_SHARED, 0, sizeof(td_granule))});
  r.push_back({TD_REGION_BUFFER_SHADOW, regionOf(TD_SCOPE_BUFFER, 0, 0, sizeof(td_granule), 0, 0)});
  return r;
}

}  // namespace td
