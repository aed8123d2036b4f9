// One probe of bisect-shape: a whole `tile-doctor check` at one shape, in its own process, and what it
// came to. The search (bisect/search.h) sees probes only through Prober, so it can be tested without
// processes.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bisect/axis.h"

namespace td::bisect {

enum class Verdict { Pass, Fail, Error };

struct ProbeOutcome {
  Verdict verdict = Verdict::Pass;
  int exitCode = 0;             // the check's exit code (of the failing run, when one failed)
  int runs = 1, failures = 0;   // --confirm N runs each probe N times
  std::string kind;             // the failure: the finding's kind, or "script-failed", "probe-crash",
                                // "probe-timeout"; Error: "bad-input", "internal", "cannot-run"
  std::string message;          // its message
  std::string place;            // kernel source file:line, and the script line when there is one
  nlohmann::json report;        // the check's JSON report (the failing run's, when one failed)
  int launchIndex = -1;         // a script's: the failing launch, its index in the report's "launches"
  double seconds = 0;           // wall time of its runs
  bool cached = false;          // taken from the probe cache, not run now
  bool flaky() const { return failures > 0 && failures < runs; }
};

// Runs probes. probe() may run the shapes of one call concurrently; it returns their outcomes in order.
class Prober {
 public:
  virtual ~Prober() = default;
  virtual std::vector<ProbeOutcome> probe(const std::vector<Shape>& shapes) = 0;
  virtual int parallel() const { return 1; }  // shapes worth asking for at once
};

}  // namespace td::bisect
