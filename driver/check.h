// One `tile-doctor check` of a bundle: compile, instrument, check launch limits, allocate arguments,
// run on the chosen executor, collect findings. The CLI and the tests both call this.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/family.h"
#include "frontend/manifest.h"
#include "runtime/buffers.h"
#include "model/launch.h"
#include "model/finding.h"

namespace td {

struct KernelModule;

struct CheckRequest {
  std::string bundlePath;
  std::vector<std::pair<std::string, std::string>> params;
  std::string target;            // profile name; empty: the default
  std::string checks = "all";
  FamilySettings settings;       // the families' options (--drift-threshold, --shadow), checked with `checks`
  std::string executor = "cpu";  // cpu, cuda or auto
  std::string blocks = "all";    // --blocks (CPU executor)
  uint64_t seed = 0;
  int repeat = 1;                // --repeat: runs (each under another schedule on the CPU), outputs compared
  std::string saveInputs;        // write every buffer as initialised, before the launch, to DIR/NAME.npy
  bool readBackBufferStates = false;  // the families' per-buffer state comes back (diff --against fp64)
  LaunchOptions launch;
  // Called with the compiled (and instrumented, for the families asked) module before anything runs:
  // profile measures the kernel from it instead of compiling it again.
  std::function<void(const Bundle&, KernelModule&)> inspectModule;
};

struct CheckResult {
  Bundle bundle;
  Report report;
  std::vector<ArgValue> args;    // after the run: the kernel's outputs
  std::vector<RegionReadback> bufferStates;  // with readBackBufferStates: each per-buffer region instance
  TimedLaunches timing;                      // --timing-launches on the GPU: each timed launch and the clocks
};

// "forward", "reverse", "random:SEED" -> the launch's schedule; throws InputError otherwise.
void parseSchedule(const std::string& text, LaunchOptions& launch);

// Throws InputError for bad input; internal errors as std::exception.
CheckResult runCheck(const CheckRequest& req);

}  // namespace td
