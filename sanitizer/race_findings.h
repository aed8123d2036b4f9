// Findings of the shared-memory race and initialisation checks, from their records (runtime/abi.h:
// TD_KIND_SHARED_RAW/WAR/WAW/UNINIT): both accesses with their source lines and threads, the shared
// array and the element.
#pragma once
#include <vector>

#include "frontend/manifest.h"
#include "runtime/abi.h"
#include "sanitizer/finding.h"

namespace td {

bool isRaceKind(unsigned kind);

// `recs` are the kept records of one (site, kind), sorted by thread, `threads` theirs (each once);
// `count` all its hits.
Finding raceFinding(unsigned kind, unsigned site, const std::vector<const td_record*>& recs,
                    const std::vector<ThreadRef>& threads, uint64_t count, const SiteTable& sites, const Bundle& b);

}  // namespace td
