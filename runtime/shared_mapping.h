// Memory shared between tile-doctor and the child process that runs a launch, and reading the hook
// records out of it once the child is gone. Both executors use these.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "model/abi.h"
#include "model/launch.h"

namespace td {

void* mapShared(size_t bytes);  // zeroed; throws std::runtime_error when the mapping fails
template <class T>
T* mapShared(size_t bytes) {
  return static_cast<T*>(mapShared(bytes));
}

// What tile-doctor knows of a launch's channel without reading it back from memory the kernel could write.
struct ChannelSeal {
  uint32_t capacity = 0;
  uint64_t seal = 0;
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
};

// Readies the channel for a launch: its capacity, an empty cursor and a fresh random seal.
ChannelSeal sealChannel(td_channel* channel, uint32_t capacity, const std::array<int64_t, 3>& grid,
                        const std::array<int64_t, 3>& block);

// Copies the channel's records, the dropped count and the per-site counters into `out`, trusting nothing of
// the shared memory: at most `seal.capacity` records; a header whose seal or capacity changed marks the
// channel overwritten; a record naming a kind, site, block or thread that cannot be is counted corrupt and
// left out.
void readRecords(LaunchOutcome& out, const td_channel* channel, const ChannelSeal& seal, const uint32_t* hits,
                 uint32_t nsites);

}  // namespace td
