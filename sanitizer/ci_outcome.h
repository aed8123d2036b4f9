// What the CI options did over a whole `check` (one or many inputs): which suppressions matched, and the
// baseline's findings no longer seen. Reporters print it beside the runs (sanitizer/reporters.h).
#pragma once
#include <string>
#include <vector>

namespace td {

struct SuppressionUse {
  std::string file;
  int line = 0;
  std::string rule, pattern;
  int matched = 0;  // findings it suppressed; 0: unused
};

struct BaselineFinding {
  std::string id, kind, message, place;
};

struct CiOutcome {
  bool suppressing = false;                  // --suppressions was given
  std::vector<SuppressionUse> suppressions;
  bool baseline = false;                     // --baseline was given
  std::string baselineSource;                // the file, or "run N of FILE"
  std::vector<BaselineFinding> absent;       // in the baseline, not seen now
  std::string shard;                         // "2/4" when --shard took part of the inputs
  int shardSkipped = 0;                      // inputs left to the other shards
};

}  // namespace td
