// Findings of the barrier and warp-mask checks (family "sync", records of the device runtime's
// __td_barrier_wait / __td_thread_exit / __td_warp_mask): threads of one block waiting at different
// barriers, a barrier completing after a thread exited while the others waited, a bad warp mask.
#pragma once
#include <vector>

#include "frontend/manifest.h"
#include "model/abi.h"
#include "model/finding.h"
#include "model/records.h"

namespace td {

// A barrier-divergence (td_barrier_payload) or warp-mask (td_mask_payload) finding at one site.
Finding syncFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b);

}  // namespace td
