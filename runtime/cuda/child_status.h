// What the CUDA executor's child tells its parent through shared memory: where it is, its device, its
// timings and clocks, and what failed. Written by the child, read by the parent.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>

#include "model/timed_launches.h"

namespace td::cuda {

constexpr int kMaxTimingSamples = 1 << 20, kMaxClockSamples = 4096;

enum ChildState : int { kSetup = 0, kLaunched = 1, kDone = 2, kKernelError = 3, kSetupError = 4, kLaunchRejected = 5,
                        kCannotRun = 6 };

// Written by the child, read by the parent.
struct SharedStatus {
  std::atomic<int> state;
  std::atomic<int> hangCopy;  // hang reports: 1 the parent asks for the hang-report regions, 2 copied, 3 failed
  char hangNote[128];         // why the copy failed
  double seconds;
  int32_t timingCount, clockCount, timingCapped;
  double timedSeconds;
  float timingMs[kMaxTimingSamples];
  ClockSample clocks[kMaxClockSamples];
  char clocksNote[200];  // why no clocks were read
  char device[160];
  char records[160];   // how records reach the host
  char registers[256]; // the checked kernel's register cap, if any
  char error[96];      // CUDA error name
  char message[1024];  // what failed
};

inline void copyText(char* dst, size_t n, const std::string& s) { std::snprintf(dst, n, "%s", s.c_str()); }

}  // namespace td::cuda
