#include "runtime/cuda/timed_runs.h"

#include <algorithm>
#include <chrono>

#include "runtime/cuda/nvml.h"

namespace td::cuda {

namespace {

constexpr double kClockPeriodSeconds = 0.005;  // NVML is read at most this often while timed launches run

// The clocks of the GPU the launches run on, where NVML knows it; `why` says otherwise.
bool openNvml(const Driver& d, CUdevice dev, Nvml& nvml, std::string& why) {
  char bus[32] = {0};
  if (!d.cuDeviceGetPCIBusId || d.cuDeviceGetPCIBusId(bus, sizeof bus, dev) != 0) {
    why = "the CUDA driver did not give the device's PCI bus id";
    return false;
  }
  return nvml.open(bus, why);
}

}  // namespace

CUresult launchOnce(const Driver& d, CUfunction fn, const Bundle& b, uint32_t dynamicShared, std::vector<void*>& params) {
  return d.cuLaunchKernel(fn, static_cast<unsigned>(b.grid[0]), static_cast<unsigned>(b.grid[1]),
                          static_cast<unsigned>(b.grid[2]), static_cast<unsigned>(b.block[0]),
                          static_cast<unsigned>(b.block[1]), static_cast<unsigned>(b.block[2]), dynamicShared,
                          nullptr, params.data(), nullptr);
}

void timeLaunches(const Driver& d, CUdevice dev, CUfunction fn, const Bundle& b, uint32_t dynamicShared,
                  std::vector<void*>& params, const LaunchOptions& opts, SharedStatus* st, td_channel* channel,
                  uint32_t* hits, size_t hitsBytes, const std::function<void()>& beforeEach) {
  std::vector<uint32_t> savedHits(hits, hits + hitsBytes / sizeof(uint32_t));
  uint32_t savedCursor = channel->cursor;
  Nvml nvml;
  std::string why;
  bool clocks = openNvml(d, dev, nvml, why);
  if (!clocks) copyText(st->clocksNote, sizeof st->clocksNote, why);
  CUevent start, stop;
  check(d, d.cuEventCreate(&start, 0), "cuEventCreate");
  check(d, d.cuEventCreate(&stop, 0), "cuEventCreate");
  auto t0 = std::chrono::steady_clock::now();
  double lastSample = -1, elapsed = 0;
  // the clocks' samples spread over the whole time asked
  double period = std::max(kClockPeriodSeconds, opts.timingSeconds / kMaxClockSamples);
  for (int i = 0;; ++i) {
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (i >= opts.timingLaunches && elapsed >= opts.timingSeconds) break;
    if (i == kMaxTimingSamples) {
      st->timingCapped = 1;
      break;
    }
    if (clocks && st->clockCount < kMaxClockSamples && elapsed - lastSample >= period) {
      ClockSample s;
      s.launch = i;
      s.seconds = static_cast<float>(elapsed);
      if (nvml.read(s)) st->clocks[st->clockCount++] = s;
      lastSample = elapsed;
    }
    beforeEach();
    d.cuEventRecord(start, nullptr);
    check(d, launchOnce(d, fn, b, dynamicShared, params), "cuLaunchKernel");
    d.cuEventRecord(stop, nullptr);
    check(d, d.cuEventSynchronize(stop), "cuEventSynchronize");
    float t = 0;
    d.cuEventElapsedTime(&t, start, stop);
    st->timingMs[st->timingCount++] = t;
  }
  st->timedSeconds = elapsed;
  std::copy(savedHits.begin(), savedHits.end(), hits);
  channel->cursor = savedCursor;
}

}  // namespace td::cuda
