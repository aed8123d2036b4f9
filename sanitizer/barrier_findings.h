// Findings of the barrier and warp-mask checks (family "sync", records of the device runtime's
// __td_barrier_wait / __td_thread_exit / __td_warp_mask): threads of one block waiting at different
// barriers, a barrier completing after a thread exited while the others waited, a bad warp mask.
#pragma once
#include <vector>

#include "frontend/manifest.h"
#include "runtime/abi.h"
#include "sanitizer/finding.h"

namespace td {

// `recs` sorted by thread, `threads` theirs (each once), `count` all hits of the site.
Finding barrierFinding(unsigned site, const std::vector<const td_record*>& recs, const std::vector<ThreadRef>& threads,
                       uint64_t count, const SiteTable& sites, const Bundle& b);

// A TD_KIND_WARP_MASK record group: a warp collective's mask that leaves out the calling lane, names
// lanes that exited, or is a 32-lane full mask on a 64-lane wave.
Finding warpMaskFinding(unsigned site, const std::vector<const td_record*>& recs, const std::vector<ThreadRef>& threads,
                        uint64_t count, const SiteTable& sites);

}  // namespace td
