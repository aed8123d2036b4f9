// Findings of the barrier checks (family "sync", CPU scheduler records TD_KIND_BARRIER_DIVERGENCE): a
// block-wide barrier that completed with threads waiting at different barriers, or after a thread exited
// while the others waited.
#pragma once
#include <vector>

#include "frontend/manifest.h"
#include "runtime/abi.h"
#include "sanitizer/finding.h"

namespace td {

// `recs` sorted by thread, `threads` theirs (each once), `count` all hits of the site.
Finding barrierFinding(unsigned site, const std::vector<const td_record*>& recs, const std::vector<ThreadRef>& threads,
                       uint64_t count, const SiteTable& sites, const Bundle& b);

}  // namespace td
