// The per-GPU-thread context the retargeted kernel reads its special registers from. The retarget pass
// emits loads at these field offsets, so the layout is part of the CPU executor's contract with it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "model/abi.h"

namespace td::cpu {

struct ThreadCtx {
  uint32_t tid[3];
  uint32_t ntid[3];
  uint32_t ctaid[3];
  uint32_t nctaid[3];
  uint32_t laneid;
  uint32_t warpid;
  uint32_t warpsize;
  uint32_t lastSite;     // last unchecked access site (for fault reports); ~0u none
  char* sharedBase;      // this block's shared window
  void* region[TD_MAX_REGIONS];  // this thread's instance of each region (abi.h), null where absent
  char* stackLow;        // this thread's fiber stack, [stackLow, stackHigh): containment accepts it
  char* stackHigh;       // (td_contain.cuh's __td_in_own_stack)
};

// Field offsets, in i32 units for the uint32 fields.
enum ThreadCtxField : unsigned {
  kTidX = 0, kNtidX = 3, kCtaidX = 6, kNctaidX = 9, kLaneId = 12, kWarpId = 13, kWarpSize = 14, kLastSite = 15,
};
constexpr size_t kSharedBaseOffset = offsetof(ThreadCtx, sharedBase);
constexpr size_t kRegionsOffset = offsetof(ThreadCtx, region);
constexpr size_t kStackLowOffset = offsetof(ThreadCtx, stackLow);
constexpr size_t kStackHighOffset = offsetof(ThreadCtx, stackHigh);

}  // namespace td::cpu
