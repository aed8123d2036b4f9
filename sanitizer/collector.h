// The host collector: decodes hook records and the launch's ending into findings, one per
// (check, site) with the exact hit count and the first threads, in the user's terms (buffer names,
// coordinates, source lines).
#pragma once
#include <vector>

#include "model/family.h"
#include "frontend/manifest.h"
#include "model/site_table.h"
#include "model/launch.h"
#include "model/finding.h"

namespace td {

std::vector<Finding> collectFindings(const LaunchOutcome& out, const SiteTable& sites, const Bundle& bundle,
                                     const FamilySettings& settings = {});

}  // namespace td
