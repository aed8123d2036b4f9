#include "diff/script_diff.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <fmt/format.h>

#include "diff/fp64_reference.h"
#include "frontend/input_error.h"
#include "frontend/lifetime.h"

namespace fs = std::filesystem;

namespace td {

namespace {

bool sameBytes(const fs::path& a, const fs::path& b) {
  std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
  std::string p((std::istreambuf_iterator<char>(x)), {}), q((std::istreambuf_iterator<char>(y)), {});
  return x.good() || x.eof() ? p == q : false;
}

// InputError unless the two runs gave the launch the same inputs (a script's unseeded randomness, or
// inputs that depend on the target, would make the comparison meaningless).
void sameInputs(const fs::path& tested, const fs::path& reference) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(tested, ec)) {
    fs::path other = reference / e.path().filename();
    if (!fs::exists(other) || !sameBytes(e.path(), other))
      throw InputError(e.path().string(), 0, fmt::format("the reference run gave this launch other inputs ({} differs): "
                                                         "the script's inputs change from run to run (random data "
                                                         "beyond torch, NumPy and Python's seeded generators?)",
                                                         e.path().filename().string()));
  }
}

}  // namespace

bool ScriptDiffReport::pass() const {
  for (const LaunchDiff& l : launches)
    for (const OutputDiff& o : l.outputs)
      if (!o.pass) return false;
  return true;
}

int ScriptDiffReport::exitCode() const {
  int scriptCode = tested.exitCode();
  if (scriptCode == 3) return 3;
  for (const LaunchDiff& l : launches)
    if (!l.error.empty()) return 2;
  if (launches.empty()) return 2;
  return pass() ? 0 : 1;
}

ScriptDiffReport runScriptDiff(const ScriptDiffRequest& req) {
  checkDiffRequest(req.diff);
  ScriptDiffReport report;
  report.rule = req.diff.rule;
  report.against = parseAgainst(req.diff.against);
  DiffRequest launchReq = req.diff;
  launchReq.check = req.script.check;
  report.fp64 = needsFp64(report.against, launchReq);
  std::string refDir, refInputs;
  std::optional<TemporaryFolder> saved;
  if (report.against.kind == Against::Files) {
    refDir = report.against.name;
    // tile-doctor did not see the run that saved them: it cannot check that the launches had these inputs
    report.referenceText = fmt::format("saved outputs in {} (a folder per launch; their inputs are not compared: the "
                                       "script must make the same ones, seeded)", refDir);
  } else if (report.against.kind != Against::Fp64) {
    saved.emplace("diff");
    refDir = saved->path() + "/outputs";
    refInputs = saved->path() + "/inputs";
    ScriptCheckRequest other = req.script;
    other.check.checks = "launch";
    other.check.settings.clear();
    other.keep.clear();
    other.check.saveInputs = refInputs;
    other.saveOutputs = refDir;
    other.seedScript = req.script.check.seed;
    other.stdoutToStderr = true;  // the report is the diff's
    if (report.against.kind == Against::Executor) other.check.executor = report.against.name;
    else other.check.target = report.against.name;
    RunSet ref = checkScriptRuns(other);
    report.referenceText = fmt::format("the same script run for {} on the {} executor", other.check.target.empty()
                                                                                            ? "the default target"
                                                                                            : other.check.target,
                                       other.check.executor);
    if (ref.exitCode() == 3) report.referenceText += " (a launch of that run crashed or hung)";
  } else {
    report.referenceText = kFp64ReferenceText;
  }
  ScriptCheckRequest tested = req.script;
  requestDiffStates(tested.check, report.fp64);
  std::optional<TemporaryFolder> testedInputs;
  if (!refInputs.empty()) {  // both runs' inputs, to see that the launches paired really had the same
    tested.seedScript = req.script.check.seed;
    if (tested.check.saveInputs.empty()) testedInputs.emplace("diff"), tested.check.saveInputs = testedInputs->path();
  }
  tested.onChecked = [&](const Run& item, const CheckResult& res) {
    LaunchDiff l;
    l.launch = item.launch;
    l.folder = item.folder;
    l.entry = item.entry;
    l.calledAt = item.calledAt.empty() ? item.compiledAt : item.calledAt;
    DiffRequest one = launchReq;
    if (!one.images.empty()) one.images = (fs::path(one.images) / item.folder).string(), checkDiffRequest(one);
    try {
      Fp64Outputs fp64;
      if (report.fp64) fp64 = fp64Outputs(res);
      std::map<std::string, std::vector<double>> refs;
      if (report.against.kind == Against::Fp64) refs = fp64.values;
      else {
        if (!refInputs.empty()) sameInputs(fs::path(tested.check.saveInputs) / item.folder, fs::path(refInputs) / item.folder);
        fs::path folder = fs::path(refDir) / item.folder;
        if (!fs::is_directory(folder)) throw InputError(folder.string(), 0, "no reference outputs for this launch");
        refs = readReferenceFiles({Against::Files, folder.string()}, res);
      }
      l.outputs = compareOutputs(res, std::move(refs), report.fp64 ? &fp64 : nullptr, one);
    } catch (const InputError& e) {
      l.error = fmt::format("{}: {}", e.where(), e.what());
    }
    report.launches.push_back(std::move(l));
  };
  report.tested = checkScriptRuns(tested);
  return report;
}

}  // namespace td
