// `tile-doctor profile BUNDLE --target A --target B`: one launch's resources (profiler/launch_resources.h)
// and its occupancy on each target side by side (frontend/occupancy.h), with the limiting resource, what
// lets one more block in, and which parameter, halved, would do it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "frontend/profile.h"
#include "profiler/launch_resources.h"
#include "frontend/occupancy.h"
#include "profiler/timing_stability.h"

namespace td {

struct TargetView {
  Profile target;
  LaunchResources resources;  // as counted on this target (registers only where the assembler's are its own)
  Occupancy occupancy;
  double waves = 0;           // the grid's blocks over (blocks per SM x SMs)
  std::vector<std::string> suggestions;  // "halving BK (64 -> 32): 2 blocks per CU"
  std::vector<std::string> overLimit;    // resources over the target's per-block limits
};

struct ProfileReport {
  LaunchProfile launch;
  std::vector<TargetView> targets;
  std::optional<LaunchTiming> timing;  // --executor cuda, --timing-launches, --stability
};

// InputError for bad input (an unknown target, a bundle that does not load or compile).
ProfileReport buildProfileReport(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& params,
                                 const std::vector<std::string>& targets);
// The same for a launch already measured (profileModule), with its registers from `ptxArchFor(targets)`.
ProfileReport buildProfileReport(LaunchProfile launch, const std::vector<std::pair<std::string, std::string>>& params,
                                 const std::vector<std::string>& targets);
// The architecture whose assembler counts registers: the first NVIDIA target's, "" for none.
std::string ptxArchFor(const std::vector<std::string>& targets);

std::string renderProfileText(const ProfileReport& r);
nlohmann::json profileJson(const ProfileReport& r);

}  // namespace td
