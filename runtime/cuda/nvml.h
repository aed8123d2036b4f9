// The NVIDIA Management Library, opened with dlopen("libnvidia-ml.so.1") at run time like the driver: the
// SM and memory clocks, the reasons they are held down, temperature and power of the GPU a launch runs on.
// Only what timing stability reads. Absent (a machine without the driver, a container without NVML): the
// report says clocks were not read, and why.
#pragma once
#include <cstdint>
#include <string>

#include "model/timed_launches.h"

namespace td::cuda {

// Bits of nvmlClocksEventReasons (nvml.h, "ClocksEventReasons"; formerly ClocksThrottleReasons).
constexpr uint64_t kReasonGpuIdle = 0x1, kReasonApplicationsClocks = 0x2, kReasonSwPowerCap = 0x4,
                   kReasonHwSlowdown = 0x8, kReasonSyncBoost = 0x10, kReasonSwThermal = 0x20, kReasonHwThermal = 0x40,
                   kReasonHwPowerBrake = 0x80, kReasonDisplayClocks = 0x100;

class Nvml {
 public:
  // Opens the library and finds the device by its PCI bus id ("0000:3B:00.0", cuDeviceGetPCIBusId's form).
  bool open(const std::string& pciBusId, std::string& why);
  // Fills the clocks, reasons, temperature and power; false when NVML would not answer.
  bool read(ClockSample& s) const;

 private:
  using Device = struct nvmlDevice_st*;
  int (*getClockInfo_)(Device, int, unsigned*) = nullptr;
  int (*getReasons_)(Device, unsigned long long*) = nullptr;
  int (*getTemperature_)(Device, int, unsigned*) = nullptr;
  int (*getPower_)(Device, unsigned*) = nullptr;
  Device device_ = nullptr;
};

// "SW power cap, HW thermal slowdown"; "" for none. The idle bit is left out: a GPU between timed
// launches reports it, and it says nothing about the launches.
std::string clockReasonsText(uint64_t reasons);

}  // namespace td::cuda
