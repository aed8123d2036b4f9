// --baseline: findings seen before are "unchanged" (kept out of the exit code, reported as such), the
// others "new"; the baseline's findings not seen now are "absent" (SARIF's baselineState). A baseline is a
// JSON or SARIF report of an earlier check, or a run of the history database (history/run_db.h). Findings
// are matched by their id (stableFingerprint: kind, places, buffer — not counts, threads or coordinates).
#pragma once
#include <string>
#include <vector>

#include "sanitizer/ci_outcome.h"
#include "sanitizer/run_set.h"

namespace td {

struct Baseline {
  std::string source;
  std::vector<BaselineFinding> findings;
};

// A tile-doctor JSON report (one input or many) or SARIF log; InputError when it is neither or unreadable.
Baseline loadBaselineFile(const std::string& path);

// Moves each finding whose id the baseline holds to Report::baselined ("unchanged"), marks the rest "new",
// and fills ci's baseline fields (the absent ones among them).
void applyBaseline(const Baseline& baseline, std::vector<RunSet>& sets, CiOutcome& ci);

}  // namespace td
