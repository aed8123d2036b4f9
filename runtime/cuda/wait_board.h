// GPU hang reports: the wait board (abi.h: one word per thread of the grid, written by the device
// runtime at barriers) read back after a launch ran past its timeout, as the waiters a hang finding
// lists - the GPU's answer to "who waits where" that the CPU scheduler gives from its own state.
#pragma once
#include <cstdint>
#include <vector>

#include "instrument/site_table.h"
#include "runtime/launch.h"

namespace td::cuda {

// Grids up to this many threads get a board (4 bytes each).
constexpr uint64_t kWaitBoardThreads = 1ull << 24;

// The threads of every block where some thread waits at a barrier: each waiting one at its site (with a
// counted barrier's id and count, the arrivals, and where threads passed it without waiting), the others
// still running. Threads that returned are left out.
std::vector<Waiter> waitersFromBoard(const uint32_t* board, const int64_t grid[3], const int64_t block[3],
                                     const SiteTable& sites);

}  // namespace td::cuda
