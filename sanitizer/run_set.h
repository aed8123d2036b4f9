// What one `tile-doctor check` did, as every reporter renders it: a RunSet of Runs. A Run is one launch
// (or, for a script, one compiled kernel it never launched) with its report or the error that stopped it;
// a bundle check is a set of one run, a script check one run per launch and per kernel never launched.
// --repeat's runs live inside their Run's report (compared outputs, findings of the later schedules);
// reference runs (diff) and probes (bisect-shape) will be Runs of their own role.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/finding.h"

namespace td {

// `check kernel.py`: the script failed (an exception, a non-zero exit) and no check found anything.
constexpr int kExitScriptFailed = 5;

struct Run {
  // A script's launch: its number (0: a compiled kernel the script never launched, or a bundle check),
  // which device kernel of one TileLang program it is, where it was compiled and called, its shapes.
  int launch = 0, part = 0, parts = 1;
  std::string entry, bundle, folder, compiledAt, calledAt;
  nlohmann::json shapes = nlohmann::json::object(), scalars = nlohmann::json::object();
  bool checked = true;  // false: run uninstrumented, for its outputs (driver/launch_policy.h)
  int sameAs = 0;       // unchecked: the earlier launch it repeats
  std::optional<Report> report;
  std::string errorWhere, error;  // what stopped it, when it did not end in a report
  int errorCode = 2;              // bad input, 3 (--timeout in the tool's own work), kExitExecutorCannotRun, or 4
  // A report speaks (its findings count) when the launch was checked, or crashed or hung anyway.
  bool speaks() const { return report && (checked || report->exitCode() == 3); }
};

struct ScriptNote {
  std::string where, text;
};

// How a script check went as a whole.
struct ScriptRun {
  std::string script;        // as given
  std::string scriptAbsolute;
  std::string tilelangVersion, arch;
  std::string generatedDialect;  // a generated source's call() read rather than a script run: its dialect
  bool hostDevice = false;   // no GPU: the script's CUDA tensors lived in host memory
  int exitCode = 0;          // the script's own
  std::string exitWhere, exitWhy;
  std::vector<ScriptNote> notes;
  std::string keptIn;        // where the bundles are kept ("" when they were temporary)
  bool keptBundles = false;
  nlohmann::json memory;     // profile: the script's memory timeline (python/tile_doctor_capture/memory_timeline.py)
};

struct RunSet {
  std::vector<Run> runs;
  std::optional<ScriptRun> script;  // absent: a bundle check
  // The worst exit code over the runs (ranked in run_set.cpp), and 5 when only the script failed.
  int exitCode() const;
};

// The exit code of a whole check: the worst over its inputs, ranked as RunSet::exitCode ranks runs.
int exitCodeOf(const std::vector<RunSet>& sets);

// Moves every report's findings that `aside` claims out of its `findings`, in order, into the list `aside`
// returns for it (the report's suppressed or baselined ones); a null list keeps the finding.
void setFindingsAside(std::vector<RunSet>& sets, const std::function<std::vector<Finding>*(Report&, Finding&)>& aside);

}  // namespace td
