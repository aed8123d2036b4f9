// Findings of containment (TD_KIND_WILD_ACCESS records, runtime/device/td_contain.cuh): an access that left
// all of the kernel's memory, with the nearest buffer or the local array it was computed from, so the
// report reads "64 bytes past the end of 'out'" rather than an address alone. Made whatever checks run.
#pragma once
#include "model/finding.h"
#include "model/records.h"

namespace td {

struct Bundle;

Finding wildAccessFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b);

}  // namespace td
