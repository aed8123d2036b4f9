// Family "launch": the launch's shape and resources against the target's limits, and hardware features
// the target lacks (sanitizer/launch_limits), decided on the host before anything runs. Nothing on the
// device.
#include "checks/family.h"

namespace td {

Family launchFamily() {
  Family f;
  f.name = "launch";
  f.summary = "launches over the target's limits (threads per block, shared and private memory, grid) or using "
              "features it lacks";
  return f;
}

}  // namespace td
