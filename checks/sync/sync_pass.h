// The sync family's own hooks: every full-block barrier calls __td_barrier_wait before it and
// __td_barrier_passed after it (bar.arrive: __td_barrier_arrive), the kernel's returns call
// __td_thread_exit — threads of one barrier generation at different sites, or exiting while others wait;
// every warp collective's member mask goes to __td_warp_mask, and every 32-bit shift by a computed amount
// to __td_lane_shift (`1u << lane` past lane 31). Placed before the synchronisation counts
// (checks/sync/sync_counting), so a barrier's wait is noted before it releases and its pass after it is
// counted.
#pragma once
#include <llvm/IR/Module.h>

#include "model/site_table.h"

namespace td {

void hookBarriersExitsAndMasks(llvm::Module& m, SiteTable& sites);

}  // namespace td
