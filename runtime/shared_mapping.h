// Memory shared between tile-doctor and the child process that runs a launch, and reading the hook
// records out of it once the child is gone. Both executors use these.
#pragma once
#include <cstddef>
#include <cstdint>

#include "runtime/abi.h"
#include "runtime/launch.h"

namespace td {

void* mapShared(size_t bytes);  // zeroed; throws std::runtime_error when the mapping fails
template <class T>
T* mapShared(size_t bytes) {
  return static_cast<T*>(mapShared(bytes));
}

// Copies the channel's records, the dropped count and the per-site counters into `out`.
void readRecords(LaunchOutcome& out, const td_channel* channel, const uint32_t* hits, uint32_t nsites);

}  // namespace td
