// The sizes of the check families' device state (abi.h, td_region) as an executor allocates it: every
// executor sizes a region the same way and differs only in where it puts the instances.
#pragma once
#include <cstdint>
#include <vector>

#include "model/abi.h"
#include "runtime/buffers.h"

namespace td {

// An instance's bytes: `measured` is the memory the region's words count (the block's shared window for
// block scope, the buffer for buffer scope; ignored otherwise).
uint64_t regionInstanceBytes(const td_region& r, uint64_t measured, uint64_t nsites);

// Sets `bytes` of every present block-, thread- and grid-scope region; `windowBytes` is the block's
// shared window as this executor lays it out.
void sizeRegions(std::vector<td_region>& table, uint64_t windowBytes, uint64_t nsites);

bool present(const td_region& r);
// A grid-scope region copied back to the host after the launch (TD_REGION_READ_BACK).
bool readBackAfterLaunch(const td_region& r);
// A per-buffer region whose every instance comes back after the launch (TD_REGION_READ_BACK on a buffer
// region: set by the driver when asked, e.g. for diff --against fp64).
bool buffersReadBack(const td_region& r);
// Executors lay regions' instances out 16-byte aligned (the race shadow's granules load as 16-byte words).
inline uint64_t roundUp16(uint64_t n) { return (n + 15) / 16 * 16; }

// An instance of a per-buffer region an executor must allocate, zeroed, and put at
// bufferRegions[arg][slot] (control_block.h); `id` is the region's index in the table (buffersReadBack).
struct BufferRegionNeed {
  size_t arg;
  unsigned slot;
  uint64_t bytes;
  unsigned id;
};
std::vector<BufferRegionNeed> bufferRegionNeeds(const std::vector<td_region>& table, const std::vector<ArgValue>& args,
                                                uint64_t nsites);

}  // namespace td
