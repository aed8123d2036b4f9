#include "runtime/cuda/nvml.h"

#include <dlfcn.h>
#include <fmt/format.h>

namespace td::cuda {

namespace {
constexpr int kClockSm = 1, kClockMem = 2, kTemperatureGpu = 0;  // nvmlClockType_t, nvmlTemperatureSensors_t
}

bool Nvml::open(const std::string& pciBusId, std::string& why) {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = fmt::format("no NVML on this machine (dlopen libnvidia-ml.so.1: {})", dlerror());
    return false;
  }
  auto init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
  auto byBus = reinterpret_cast<int (*)(const char*, Device*)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  getClockInfo_ = reinterpret_cast<decltype(getClockInfo_)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
  getReasons_ = reinterpret_cast<decltype(getReasons_)>(dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
  if (!getReasons_)  // drivers before 535 name it by throttling
    getReasons_ = reinterpret_cast<decltype(getReasons_)>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  getTemperature_ = reinterpret_cast<decltype(getTemperature_)>(dlsym(lib, "nvmlDeviceGetTemperature"));
  getPower_ = reinterpret_cast<decltype(getPower_)>(dlsym(lib, "nvmlDeviceGetPowerUsage"));
  if (!init || !byBus || !getClockInfo_) {
    why = "this NVML lacks nvmlInit_v2, nvmlDeviceGetHandleByPciBusId_v2 or nvmlDeviceGetClockInfo";
    return false;
  }
  if (int r = init(); r != 0) {
    why = fmt::format("nvmlInit_v2 failed (NVML error {})", r);
    return false;
  }
  if (int r = byBus(pciBusId.c_str(), &device_); r != 0) {
    why = fmt::format("NVML does not know the device at PCI bus {} (NVML error {})", pciBusId, r);
    return false;
  }
  return true;
}

bool Nvml::read(ClockSample& s) const {
  unsigned sm = 0, mem = 0;
  if (!device_ || getClockInfo_(device_, kClockSm, &sm) != 0 || getClockInfo_(device_, kClockMem, &mem) != 0) return false;
  s.smMHz = sm;
  s.memMHz = mem;
  unsigned long long reasons = 0;
  if (getReasons_ && getReasons_(device_, &reasons) == 0) s.reasons = reasons;
  unsigned value = 0;
  if (getTemperature_ && getTemperature_(device_, kTemperatureGpu, &value) == 0) s.temperatureC = value;
  if (getPower_ && getPower_(device_, &value) == 0) s.powerMilliwatts = value;
  return true;
}

std::string clockReasonsText(uint64_t reasons) {
  static const std::pair<uint64_t, const char*> names[] = {
      {kReasonApplicationsClocks, "applications clocks setting"}, {kReasonSwPowerCap, "SW power cap"},
      {kReasonHwSlowdown, "HW slowdown"}, {kReasonSyncBoost, "sync boost"}, {kReasonSwThermal, "SW thermal slowdown"},
      {kReasonHwThermal, "HW thermal slowdown"}, {kReasonHwPowerBrake, "HW power brake"},
      {kReasonDisplayClocks, "display clocks setting"}};
  std::string out;
  for (auto [bit, name] : names)
    if (reasons & bit) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

}  // namespace td::cuda
