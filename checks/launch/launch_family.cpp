// Family "launch": the launch's shape and resources against the target's limits, and hardware features
// the target lacks (checks/launch/launch_limits), decided on the host before anything runs. Nothing on the
// device.
#include "checks/launch/launch_limits.h"
#include "instrument/pipeline.h"
#include "model/family.h"

namespace td {

std::vector<Rule> launchRules();  // launch_rules.cpp

namespace {

// A launch over a limit is not run (a target that lacks TMA says so before the CPU refuses it); one
// past the target's default launch bounds is only warned about.
bool launchLimits(const BeforeLaunch& in, std::vector<Finding>& into) {
  const KernelModule& km = in.module;
  std::vector<Finding> over =
      checkLaunchLimits(in.bundle, in.target, in.staticSharedBytes, km.privateMemory, km.features, in.registers());
  into.insert(into.end(), over.begin(), over.end());
  if (!over.empty()) return false;
  if (auto f = checkDefaultLaunchBounds(in.bundle, in.target, km.launchBounds)) into.push_back(*f);
  return true;
}

}  // namespace

Family launchFamily() {
  Family f;
  f.name = "launch";
  f.rules = launchRules();
  f.readsAmdgpuIr = true;
  f.summary = "launches over the target's limits (threads per block, shared and private memory, grid) or using "
              "features it lacks";
  f.beforeLaunch = launchLimits;
  return f;
}

}  // namespace td
