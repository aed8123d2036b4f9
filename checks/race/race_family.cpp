// Family "race": read-after-write, write-after-read and write-after-write between threads nothing
// orders, in shared memory and in global buffers (instrument/race_pass, race_runtime.cu).
#include "checks/family.h"
#include "checks/race/access_tracking.h"
#include "checks/race/race_regions.h"

namespace td {

Family raceFamily() {
  Family f;
  f.name = "race";
  f.summary = "data races in shared memory and global buffers, within and across blocks";
  f.regions = shadowRegions();
  f.deviceSources = {"checks/race/race_runtime.cu", "checks/sync/sync_runtime.cu"};
  f.instrument = trackAccessesAndSync;
  return f;
}

}  // namespace td
