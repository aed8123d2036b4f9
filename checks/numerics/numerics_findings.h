// Findings of the numerics family: non-finite values where they are born (records), and per store site
// the drift of what it stored from the same computation carried out in the wider shadow type (the
// TD_REGION_NUM_SITES region read back).
#pragma once
#include <vector>

#include "model/family.h"
#include "frontend/manifest.h"
#include "model/finding.h"
#include "model/records.h"

namespace td {

struct LaunchOutcome;

// fp-overflow / fp-invalid at one site (TD_KIND_FP_OVERFLOW, _FP_INVALID).
Finding nonFiniteFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b);

// precision-drift: one finding per store site whose normwise error passes its stored type's threshold,
// the worst first.
void driftFindings(const LaunchOutcome& out, const SiteTable& sites, const Bundle& b, const FamilySettings& settings,
                   std::vector<Finding>& into);

// The default threshold of the normwise relative error max|value - shadow| / max|shadow| per stored type.
double defaultDriftThreshold(const std::string& type);

}  // namespace td
