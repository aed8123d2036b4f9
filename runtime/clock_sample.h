// What the GPU's clocks were while timed launches ran (NVML, runtime/cuda/nvml.h), one sample every few
// milliseconds: read by the timing-stability verdict (profiler/timing_stability.h).
#pragma once
#include <cstdint>

namespace td {

struct ClockSample {
  int32_t launch = 0;      // the timed launch it was read after
  float seconds = 0;       // since the first timed launch
  uint32_t smMHz = 0, memMHz = 0;
  uint64_t reasons = 0;    // NVML clocks event (throttle) reasons, a bit set
  uint32_t temperatureC = 0, powerMilliwatts = 0;
};

}  // namespace td
