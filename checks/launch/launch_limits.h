// Checks made before launch (check family "launch"): shared memory per block, threads per block, grid
// dimensions and private memory per thread against the target profile, and hardware features the target
// lacks. A launch with such a finding is not run, as the driver would refuse it (or the target's compiler).
#pragma once
#include <optional>
#include <vector>

#include "frontend/manifest.h"
#include "frontend/profile.h"
#include "instrument/launch_bounds.h"
#include "instrument/private_memory.h"
#include "instrument/target_features.h"
#include "model/family.h"
#include "model/finding.h"

namespace td {

// `registers`: the assembler's figure for a kernel whose registers may not fit a block (register_budget.h).
std::vector<Finding> checkLaunchLimits(const Bundle& b, const Profile& p, uint64_t staticSharedBytes,
                                       const PrivateMemory& privateMemory = {},
                                       const std::vector<FeatureUse>& features = {},
                                       const std::optional<RegisterUse>& registers = std::nullopt);

// A warning, not a refusal: a kernel without __launch_bounds__ launched with more threads than the target's
// compiler assumes for one (profile default_launch_bounds; MACA 512). The launch still runs.
std::optional<Finding> checkDefaultLaunchBounds(const Bundle& b, const Profile& p, const LaunchBounds& bounds);

}  // namespace td
