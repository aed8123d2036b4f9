// The synchronisation counts' regions, which the race, init and sync families all declare alike.
#pragma once
#include <utility>
#include <vector>

#include "model/family.h"
#include "model/regions.h"
#include "checks/sync/sync_abi.h"

namespace td {

inline std::vector<std::pair<unsigned, td_region>> syncCountRegions() {
  return {{TD_REGION_BLOCK_SYNC, regionOf(TD_SCOPE_BLOCK, TD_REGION_PREFER_SHARED, TD_BLOCK_SYNC_BYTES)},
          {TD_REGION_THREAD_SYNC, regionOf(TD_SCOPE_THREAD, TD_REGION_PREFER_SHARED, TD_THREAD_SYNC_BYTES)}};
}

}  // namespace td
