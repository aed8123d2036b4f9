// Family "init": reads of shared bytes, or of an init = "uninit" buffer's bytes, that no thread wrote in
// this launch. It shares the race family's shadow and device source.
#include "checks/family.h"
#include "checks/race/access_tracking.h"
#include "checks/race/race_regions.h"

namespace td {

Family initFamily() {
  Family f;
  f.name = "init";
  f.summary = "reads of shared memory or of uninitialised buffers before any thread wrote them";
  f.regions = shadowRegions();
  f.deviceSources = {"checks/race/race_runtime.cu", "checks/sync/sync_runtime.cu"};
  f.instrument = trackAccessesAndSync;
  return f;
}

}  // namespace td
