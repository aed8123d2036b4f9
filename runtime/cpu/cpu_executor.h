// The CPU executor: retargets the instrumented module to the host, JIT-compiles it, and runs the launch
// in a child process (so a kernel that faults or hangs cannot take the tool down), blocks spread over
// worker threads, each block one fiber per GPU thread.
#pragma once
#include <vector>

#include "frontend/manifest.h"
#include "instrument/pipeline.h"
#include "runtime/buffers.h"
#include "model/launch.h"

namespace td::cpu {

// Consumes km.module. `warpSize` comes from the target profile.
LaunchOutcome runOnCpu(KernelModule& km, const Bundle& bundle, std::vector<ArgValue>& args, int warpSize,
                       const LaunchOptions& opts);

}  // namespace td::cpu
