// The CUDA executor: the same instrumented module as the CPU executor, compiled to PTX for the GPU and
// run with the driver API in a child process, so a sticky CUDA error or a hang ends the child, not the
// tool. Records go to host memory mapped into the GPU, so they survive the child.
#pragma once
#include <string>
#include <vector>

#include "frontend/manifest.h"
#include "instrument/pipeline.h"
#include "runtime/buffers.h"
#include "runtime/cuda/gpu_probe.h"
#include "model/launch.h"

namespace td::cuda {

// Consumes km.module.
LaunchOutcome runOnCuda(KernelModule& km, const Bundle& bundle, std::vector<ArgValue>& args, const LaunchOptions& opts);


}  // namespace td::cuda
