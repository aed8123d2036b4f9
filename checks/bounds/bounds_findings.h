// Findings of the bounds checks, from their records (td_access_payload): the buffer or shared array by
// name, the element's coordinates, how far outside, the threads.
#pragma once
#include "frontend/manifest.h"
#include "model/finding.h"
#include "model/records.h"

namespace td {

// An access outside its object, or misaligned, at one site (TD_KIND_GLOBAL_OOB, _SHARED_OOB, _MISALIGNED).
Finding boundsFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b);

}  // namespace td
