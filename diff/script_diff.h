// `tile-doctor diff kernel.py --against REF`: the whole script runs as `check kernel.py` runs it, and every
// checked launch's outputs are compared with their reference. REF is fp64 (the launch's own shadows), a
// folder of saved outputs (DIR/LAUNCH/NAME.npy, as `check kernel.py --save-outputs DIR` writes them), or
// an executor or target: then the script runs first under that one (for a target, lowered for it: its own
// lowering and warp size) with its outputs saved, and the launches are paired by their folder names
// (launch1, launch2, ... in the order the script makes them). The script's own outputs are those of the run
// under test.
#pragma once
#include <string>
#include <vector>

#include "diff/diff_run.h"
#include "driver/script_run.h"
#include "sanitizer/run_set.h"

namespace td {

struct ScriptDiffRequest {
  ScriptCheckRequest script;  // the run under test
  DiffRequest diff;           // against, rule, overrides, worst, images (its `check` is unused)
};

struct LaunchDiff {
  int launch = 0;
  std::string folder, entry, calledAt;
  std::vector<OutputDiff> outputs;
  std::string error;  // why this launch was not compared (no reference for it)
};

struct ScriptDiffReport {
  Against against;
  std::string referenceText, rule;
  bool fp64 = false;
  RunSet tested;              // the run under test, as check kernel.py reports it
  std::vector<LaunchDiff> launches;
  bool pass() const;
  int exitCode() const;       // 3 a launch crashed or hung; 2 a launch had no reference; 1 the rule failed; 0
};

ScriptDiffReport runScriptDiff(const ScriptDiffRequest& req);

}  // namespace td
