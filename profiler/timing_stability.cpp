#include "profiler/timing_stability.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "runtime/cuda/nvml.h"

namespace td {

namespace {

constexpr double kSettledPercent = 5.0, kSpreadPercent = 5, kDriftPercent = 3, kClockPercent = 2;
constexpr int64_t kFewestToJudge = 20;

// The q-quantile of `v` (sorted here), by linear interpolation between ranks.
double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double pos = q * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos)), hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

double medianOf(const std::vector<float>& ms, int64_t from, int64_t to) {
  return quantile(std::vector<double>(ms.begin() + from, ms.begin() + to), 0.5);
}

double percentOff(double a, double b) { return b > 0 ? (a - b) / b * 100 : 0; }

}  // namespace

TimingStability judgeTiming(const TimedLaunches& run) {
  const std::vector<float>& ms = run.ms;
  const std::vector<ClockSample>& clocks = run.clocks;
  TimingStability t;
  t.seconds = run.seconds;
  t.capped = run.capped;
  auto n = static_cast<int64_t>(ms.size());
  t.launches = n;
  if (n == 0) {
    t.verdicts.push_back("not measured: no timed launch ran");
    return t;
  }
  // warm-up: the first window from which every window's median stays within 5% of the settled median
  // (the last half's); windows of a twentieth of the run, at least 5 launches
  t.window = std::max<int64_t>(5, n / 20);
  t.warmupJudged = n >= kFewestToJudge;
  if (t.warmupJudged) {
    // near: within 5%, or twice the last half's own spread where that is wider (noise is not warm-up)
    std::vector<double> lastHalf(ms.begin() + n / 2, ms.end());
    double settled = quantile(lastHalf, 0.5);
    double spread = settled > 0 ? (quantile(lastHalf, 0.75) - quantile(lastHalf, 0.25)) / settled * 100 : 0;
    double near = std::max(kSettledPercent, 2 * spread);
    int64_t windows = n / t.window;
    int64_t firstSettled = windows;
    for (int64_t w = windows - 1; w >= 0; --w) {
      double m = medianOf(ms, w * t.window, std::min(n, (w + 1) * t.window));
      if (std::abs(percentOff(m, settled)) > near) break;
      firstSettled = w;
    }
    t.warmup = firstSettled == windows ? 0 : firstSettled * t.window;  // not even the last settled: no warm-up to name
    t.firstWindowMs = medianOf(ms, 0, t.window);
  }
  std::vector<double> steady(ms.begin() + t.warmup, ms.end());
  t.medianMs = quantile(steady, 0.5);
  t.q1Ms = quantile(steady, 0.25);
  t.q3Ms = quantile(steady, 0.75);
  t.minMs = *std::min_element(steady.begin(), steady.end());
  t.maxMs = *std::max_element(steady.begin(), steady.end());
  t.iqrPercent = t.medianMs > 0 ? (t.q3Ms - t.q1Ms) / t.medianMs * 100 : 0;
  auto third = static_cast<int64_t>(steady.size()) / 3;
  if (third >= 5)
    t.driftPercent = percentOff(medianOf(ms, n - third, n), medianOf(ms, t.warmup, t.warmup + third));
  t.clocksRead = !clocks.empty();
  t.clocksNote = run.clocksNote;
  if (t.clocksRead) {
    t.smMinMHz = t.memMinMHz = UINT32_MAX;
    for (const ClockSample& s : clocks) {
      t.smMinMHz = std::min(t.smMinMHz, s.smMHz);
      t.smMaxMHz = std::max(t.smMaxMHz, s.smMHz);
      t.memMinMHz = std::min(t.memMinMHz, s.memMHz);
      t.memMaxMHz = std::max(t.memMaxMHz, s.memMHz);
      t.temperatureMaxC = std::max(t.temperatureMaxC, s.temperatureC);
      t.reasons |= s.reasons & ~cuda::kReasonGpuIdle;
    }
  }
  if (!t.warmupJudged)
    t.verdicts.push_back(fmt::format("too few launches to judge warm-up ({} < {}): time more (--timing-launches)", n,
                                     kFewestToJudge));
  else if (t.warmup > 0)
    t.verdicts.push_back(fmt::format("warm-up needed: {} launches (the first {} took {:.4g} ms at the median, settled {:.4g} ms)",
                                     t.warmup, t.window, t.firstWindowMs, t.medianMs));
  bool clocksMoved = t.clocksRead && percentOff(t.smMaxMHz, t.smMinMHz) > kClockPercent;
  if (clocksMoved || t.reasons)
    t.verdicts.push_back(fmt::format("clocks varied: SM {}-{} MHz, memory {}-{} MHz{}", t.smMinMHz, t.smMaxMHz, t.memMinMHz,
                                     t.memMaxMHz, t.reasons ? "; held down by " + cuda::clockReasonsText(t.reasons) : ""));
  if (t.iqrPercent > kSpreadPercent)
    t.verdicts.push_back(fmt::format("spread: the middle half spans {:.1f}% of the median: take the median of many runs",
                                     t.iqrPercent));
  if (std::abs(t.driftPercent) > kDriftPercent)
    t.verdicts.push_back(fmt::format("drift: the last third {:+.1f}% against the first (settled launches)", t.driftPercent));
  if (t.verdicts.empty()) t.verdicts.push_back("stable");
  if (t.capped)  // said last: it qualifies the verdict, it is not one
    t.verdicts.push_back(fmt::format("note: stopped at {} launches (the most kept) after {:.1f} s, before the time asked had passed",
                                     t.launches, t.seconds));
  return t;
}

namespace {

std::string gpuTimingText(const TimingStability& t) {
  std::string out = fmt::format("{} launches in {:.2f} s", t.launches, t.seconds);
  if (t.launches == 0) return out + "\n  " + t.verdicts.front() + "\n";
  out += fmt::format(", warm-up {} ({} a window)\n", t.warmupJudged ? std::to_string(t.warmup) : "not judged", t.window);
  out += fmt::format("  median {:.4g} ms, middle half {:.4g}-{:.4g} ms (IQR {:.1f}%), min {:.4g}, max {:.4g}; drift {:+.1f}%\n",
                     t.medianMs, t.q1Ms, t.q3Ms, t.iqrPercent, t.minMs, t.maxMs, t.driftPercent);
  if (t.clocksRead)
    out += fmt::format("  clocks (NVML): SM {}-{} MHz, memory {}-{} MHz, at most {} C{}\n", t.smMinMHz, t.smMaxMHz,
                       t.memMinMHz, t.memMaxMHz, t.temperatureMaxC,
                       t.reasons ? "; reasons: " + cuda::clockReasonsText(t.reasons) : "; no reason held them down");
  else
    out += "  clocks: not read (" + t.clocksNote + ")\n";
  for (const std::string& v : t.verdicts) out += "  verdict: " + v + "\n";
  return out;
}

nlohmann::json gpuTimingJson(const TimingStability& t) {
  nlohmann::json j = {{"launches", t.launches},
                      {"window", t.window},
                      {"warmup_launches", t.warmupJudged ? nlohmann::json(t.warmup) : nlohmann::json()},
                      {"first_window_median_ms", t.firstWindowMs},
                      {"median_ms", t.medianMs},
                      {"q1_ms", t.q1Ms},
                      {"q3_ms", t.q3Ms},
                      {"iqr_percent", t.iqrPercent},
                      {"min_ms", t.minMs},
                      {"max_ms", t.maxMs},
                      {"drift_percent", t.driftPercent},
                      {"seconds", t.seconds},
                      {"capped", t.capped},
                      {"verdicts", t.verdicts}};
  if (t.clocksRead)
    j["clocks"] = {{"sm_mhz", {t.smMinMHz, t.smMaxMHz}}, {"memory_mhz", {t.memMinMHz, t.memMaxMHz}},
                   {"temperature_max_c", t.temperatureMaxC}, {"reasons", cuda::clockReasonsText(t.reasons)}};
  else
    j["clocks"] = {{"unknown", t.clocksNote}};
  return j;
}

}  // namespace

std::string renderTimingText(const LaunchTiming& t) {
  if (!t.notRun.empty()) return "timing: not measured: the launch did not run: " + t.notRun + "\n";
  if (t.gpu) return fmt::format("timing on {}: ", t.device) + gpuTimingText(*t.gpu);
  return fmt::format("timing: not measured: the CPU executor simulates the GPU, and its times are the host's, not a GPU's "
                     "(--executor cuda on a machine with an NVIDIA GPU times the kernel)\n  simulated work: {} blocks, {} "
                     "threads run\n",
                     t.blocksRun, t.threadsRun);
}

nlohmann::json timingJson(const LaunchTiming& t) {
  nlohmann::json j = {{"executor", t.executor}, {"device", t.device}};
  if (!t.notRun.empty()) j["not_run"] = t.notRun;
  else if (t.gpu) j["gpu"] = gpuTimingJson(*t.gpu);
  else j["simulated_work"] = {{"blocks", t.blocksRun}, {"threads", t.threadsRun}};
  return j;
}

}  // namespace td
