// GPU hang reports: the wait board (region TD_REGION_WAIT_BOARD: one word per thread of the grid, written
// by the sync family's device source at barriers) read back after a launch ran past its timeout, as the
// waiters a hang finding lists - the GPU's answer to "who waits where" that the CPU scheduler gives from
// its own state.
#pragma once
#include <cstdint>
#include <vector>

#include "model/site_table.h"
#include "frontend/manifest.h"
#include "model/launch.h"

namespace td {

// The threads of every block where some thread waits at a barrier: each waiting one at its site (with a
// counted barrier's id and count, the arrivals, and where threads passed it without waiting), the others
// still running. Threads that returned are left out.
// `threads` words per block; a board of another size names no one.
std::vector<Waiter> waitersFromBoard(const uint32_t* board, uint64_t words, const int64_t grid[3], const int64_t block[3],
                                     const SiteTable& sites);

// Family "sync"'s afterLaunch: a launch stopped for time whose wait board came back gets its waiters.
void waitersFromReadback(LaunchOutcome& out, const SiteTable& sites, const Bundle& b);

}  // namespace td
