// Which of a launch's regions the block keeps in its own shared memory (the tail after the kernel's dynamic
// array, model/abi.h): shared words cost a check what the kernel's own shared accesses cost, global ones go
// past L1 to L2. Kept apart from the allocation so that the choice is tested without a GPU.
#pragma once
#include <cstdint>
#include <vector>

#include "frontend/profile.h"
#include "model/abi.h"

namespace td::cuda {

struct SharedTail {
  std::vector<td_region> table;  // the sized table, the regions placed marked TD_REGION_IN_SHARED
  uint32_t bytes = 0;            // the tail's size per block; 0: none
};

// Registers a thread that a kernel with the larger regions' checks is taken to need at least: its true count
// is known only after the compile, which the tail's place is baked into. The checks' state raises it past this
// (with every check on an H100: the block reduction 80 under its cap, the TileLang GEMM 128 and more).
constexpr int64_t kCheckedRegistersAtLeast = 64;

// The regions that prefer shared memory (TD_REGION_PREFER_SHARED: a few words a block, thread or granule) go
// into the tail together or not at all; then, only where they did, each that prefers it where it is free
// (TD_REGION_PREFER_SHARED_IF_FREE: larger, as the numerics granules of a shared window) where it leaves the
// SM as many blocks as it held without it at kCheckedRegistersAtLeast registers a thread, and the kernel has
// a shared window at all. `kernelShared`: the kernel's static and dynamic shared bytes; `limit`: the most
// shared memory a block may have.
SharedTail planSharedTail(const std::vector<td_region>& sized, int64_t threadsPerBlock, uint64_t kernelShared,
                          uint64_t limit, const Profile& sm);

}  // namespace td::cuda
