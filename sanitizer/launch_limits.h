// Checks made before launch (check family "launch"): shared memory per block and threads per block
// against the target profile. A launch with such a finding is not run, as the driver would refuse it.
#pragma once
#include <vector>

#include "frontend/manifest.h"
#include "frontend/profile.h"
#include "sanitizer/finding.h"

namespace td {

std::vector<Finding> checkLaunchLimits(const Bundle& b, const Profile& p, uint64_t staticSharedBytes);

}  // namespace td
