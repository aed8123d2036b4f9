#include "sanitizer/run_set.h"

#include "runtime/executor_limit.h"

namespace td {

namespace {

// An internal error (4) outranks a crash or hang (3), which outranks bad input (2), then findings (1),
// then a kernel the executor cannot run (6), then "the script failed" (5), which only speaks when nothing
// else did.
int rank(int code) {
  switch (code) {
    case 4: return 6;
    case 3: return 5;
    case 2: return 4;
    case 1: return 3;
    case kExitExecutorCannotRun: return 2;
    case kExitScriptFailed: return 1;
    default: return 0;
  }
}

int combine(int worst, int code) { return rank(code) > rank(worst) ? code : worst; }

}  // namespace

int RunSet::exitCode() const {
  int worst = 0;
  for (const Run& r : runs) {
    if (r.speaks()) worst = combine(worst, r.report->exitCode());
    if (!r.error.empty()) worst = combine(worst, r.errorCode);
  }
  if (script && script->exitCode != 0) worst = combine(worst, kExitScriptFailed);
  return worst;
}

int exitCodeOf(const std::vector<RunSet>& sets) {
  int worst = 0;
  for (const RunSet& s : sets) worst = combine(worst, s.exitCode());
  return worst;
}

void setFindingsAside(std::vector<RunSet>& sets, const std::function<std::vector<Finding>*(Report&, Finding&)>& aside) {
  for (RunSet& set : sets)
    for (Run& run : set.runs) {
      if (!run.report) continue;
      Report& r = *run.report;
      std::vector<Finding> kept;
      for (Finding& f : r.findings)
        if (std::vector<Finding>* to = aside(r, f)) to->push_back(std::move(f));
        else kept.push_back(std::move(f));
      r.findings = std::move(kept);
    }
}

}  // namespace td
