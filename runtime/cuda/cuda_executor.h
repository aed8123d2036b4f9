// The CUDA executor: the same instrumented module as the CPU executor, compiled to PTX for the GPU and
// run with the driver API in a child process, so a sticky CUDA error or a hang ends the child, not the
// tool. Records go to host memory mapped into the GPU, so they survive the child.
#pragma once
#include <string>
#include <vector>

#include "frontend/manifest.h"
#include "instrument/pipeline.h"
#include "runtime/buffers.h"
#include "runtime/launch.h"

namespace td::cuda {

// Consumes km.module.
LaunchOutcome runOnCuda(KernelModule& km, const Bundle& bundle, std::vector<ArgValue>& args, const LaunchOptions& opts);

// Whether a usable GPU is there (probed in a child process, so this process never initialises CUDA);
// when not, `why` says what is missing.
bool gpuAvailable(int device, std::string& why);

}  // namespace td::cuda
