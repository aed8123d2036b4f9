// The CUDA executor's timed launches (check --time): the checked kernel launched again, CUDA events around
// each launch, NVML's clocks sampled between them, every figure written to the child's status.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "frontend/manifest.h"
#include "model/abi.h"
#include "model/launch.h"
#include "runtime/cuda/child_status.h"
#include "runtime/cuda/driver.h"

namespace td::cuda {

CUresult launchOnce(const Driver& d, CUfunction fn, const Bundle& b, uint32_t dynamicShared, std::vector<void*>& params);

// `opts.timingLaunches` more launches (and more until `opts.timingSeconds` have passed), CUDA events
// around each, NVML's clocks read every few milliseconds between them; each time and sample goes to `st`.
// The checked launch's records and counts are restored afterwards, so the report describes that one
// launch only.
void timeLaunches(const Driver& d, CUdevice dev, CUfunction fn, const Bundle& b, uint32_t dynamicShared,
                  std::vector<void*>& params, const LaunchOptions& opts, SharedStatus* st, td_channel* channel,
                  uint32_t* hits, size_t hitsBytes, const std::function<void()>& beforeEach);

}  // namespace td::cuda
