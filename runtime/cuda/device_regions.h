// The check families' regions on the GPU (model/abi.h): sized once in the parent, placed by the child —
// those that prefer shared memory in the block's own shared tail where they all fit, the rest in global
// memory — and the slots through which the ones that come back reach the parent's mapping.
#pragma once
#include <cstdint>
#include <vector>

#include "frontend/manifest.h"
#include "frontend/profile.h"
#include "instrument/pipeline.h"
#include "model/abi.h"
#include "model/launch.h"
#include "runtime/buffers.h"
#include "runtime/control_block.h"
#include "runtime/cuda/driver.h"
#include "runtime/regions.h"

namespace td::cuda {

struct DeviceRegions {
  std::vector<td_region> table;  // as the module sees it
  std::vector<BufferRegions> buffers;
  uint32_t tailBytes = 0;  // of shared memory per block, after the kernel's dynamic array
  std::vector<std::pair<CUdeviceptr, size_t>> allocations;
  void zero(const Driver& d) const;  // for another launch (the timing runs start from a fresh state too)
  uint32_t dynamicShared(const Bundle& b) const;  // the launch's dynamic shared bytes
};

// The regions sized for this launch, once, in the parent (which maps what comes back); the child it forks
// places them.
std::vector<td_region> sizedRegions(const KernelModule& km, const Bundle& b, const LaunchOptions& opts);

// Places the sized regions: those that prefer shared memory in the block's tail where they fit (shared_tail.h),
// everything else in global memory, zeroed. Throws ExecutorCannotRun past the tool's device-state limit.
DeviceRegions allocateRegions(const Driver& d, const KernelModule& km, const Bundle& b, const std::vector<ArgValue>& args,
                              const std::vector<td_region>& sized, uint64_t sharedPerBlockLimit, const Profile& sm);

// A region that comes back to the host: where it lies in the mapping the parent reads.
struct ReadbackSlot {
  unsigned id;
  size_t offset, bytes;
  bool onHang;   // TD_REGION_HANG_READBACK: copied when the launch is stopped for time, else after it
  int arg = -1;  // a per-buffer region's instance: its argument
};

std::vector<ReadbackSlot> readbackSlots(const std::vector<td_region>& table, const Bundle& b,
                                        const std::vector<ArgValue>& args, uint64_t nsites, size_t& totalBytes);

}  // namespace td::cuda
