// Whether a kernel's time can be trusted (`profile --executor cuda`): the times of many launches in
// order, and the GPU's clocks meanwhile, judged the way a careful benchmark is — how many launches pass
// before the times settle (warm-up), the median and spread of the settled ones, drift over the run, and
// whether the clocks moved and why. Pure: the numbers come from the CUDA executor (model/launch.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/timed_launches.h"

namespace td {

struct TimingStability {
  int64_t launches = 0;
  double seconds = 0;          // from the first timed launch to the end of the last
  bool capped = false;         // stopped at the most launches kept before the time asked had passed
  int64_t window = 0;          // launches per window the warm-up is judged by
  int64_t warmup = 0;          // launches before every later window's median stays near the settled median
  bool warmupJudged = false;   // false: too few launches to say
  double firstWindowMs = 0;    // the first window's median, to show what warm-up cost
  double medianMs = 0, q1Ms = 0, q3Ms = 0, minMs = 0, maxMs = 0;  // of the settled launches
  double iqrPercent = 0;       // (q3 - q1) / median
  double driftPercent = 0;     // last third's median against the first third's, settled launches
  bool clocksRead = false;
  std::string clocksNote;      // why not
  uint32_t smMinMHz = 0, smMaxMHz = 0, memMinMHz = 0, memMaxMHz = 0, temperatureMaxC = 0;
  uint64_t reasons = 0;        // every reason seen, idle left out
  std::vector<std::string> verdicts;  // "stable", or each thing that is not
};

// A launch's timing as profile reports it: judged on the GPU; on the CPU executor, which simulates the GPU,
// the work it did and no time at all (its times are the host's, not a GPU's).
struct LaunchTiming {
  std::string executor, device;
  std::optional<TimingStability> gpu;
  uint64_t blocksRun = 0, threadsRun = 0;  // the CPU executor's work
  std::string notRun;                       // why the launch did not run (the driver refused it, a limit)
};

// Thresholds: a window is settled within 5% of the settled median (the last half's; or twice that half's
// IQR where that is wider, so noise is not taken for warm-up); spread above 5% of the median, drift
// above 3%, or SM clocks moving more than 2% are named.
TimingStability judgeTiming(const TimedLaunches& run);

std::string renderTimingText(const LaunchTiming& t);
nlohmann::json timingJson(const LaunchTiming& t);

}  // namespace td
