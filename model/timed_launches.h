// Launches timed on the GPU (profile --executor cuda; check --timing-launches): each launch's time in order,
// and what the GPU's clocks were meanwhile (NVML, runtime/cuda/nvml.h), one sample every few milliseconds.
// Judged by profiler/timing_stability.h.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace td {

struct ClockSample {
  int32_t launch = 0;      // the timed launch it was read before
  float seconds = 0;       // since the first timed launch
  uint32_t smMHz = 0, memMHz = 0;
  uint64_t reasons = 0;    // NVML clocks event (throttle) reasons, a bit set
  uint32_t temperatureC = 0, powerMilliwatts = 0;
};

struct TimedLaunches {
  std::vector<float> ms;            // each timed launch, in order
  std::vector<ClockSample> clocks;  // the GPU's clocks meanwhile
  std::string clocksNote;           // why there are none
  double seconds = 0;               // from the first timed launch to the end of the last
  bool capped = false;              // stopped at the most launches kept, before the time asked had passed
  double medianMs() const {         // of all of them (check --timing-launches); 0 when none
    if (ms.empty()) return 0;
    std::vector<float> sorted = ms;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    return sorted[sorted.size() / 2];
  }
};

}  // namespace td
