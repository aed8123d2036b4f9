// --format sarif: SARIF 2.1.0 as GitHub code scanning takes it (../shared/research/wave2-anchors.md §4):
// one run, the driver's rules[] from the rule registry (model/rules.h), a result per finding at its
// place — for a TileLang script the Python line first, then the generated kernel's line — with the
// finding's fingerprint as partialFingerprints and the rule's severity as level.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sanitizer/reporters.h"
#include "runtime/executor_limit.h"
#include "model/rules.h"

namespace td {

namespace {

// A path as an artifact URI: relative to the working folder when it lies inside it (GitHub resolves those
// against the repository), else absolute.
std::string artifactUri(const std::string& path) { return portablePath(path); }

// A full region, as GitHub's code scanning asks: the finding's column (or the line's start) and one
// character; a Python line has no column, so it stands at the line's start.
nlohmann::json location(const std::string& file, unsigned line, unsigned column) {
  unsigned startLine = std::max(line, 1u), startColumn = std::max(column, 1u);
  nlohmann::json region = {{"startLine", startLine}, {"startColumn", startColumn}, {"endLine", startLine},
                           {"endColumn", startColumn + 1}};
  return {{"physicalLocation", {{"artifactLocation", {{"uri", artifactUri(file)}}}, {"region", region}}}};
}

// "gemm.py:14" -> (gemm.py, 14); line 0 when there is none.
std::pair<std::string, unsigned> pythonPlace(const std::string& python) {
  size_t colon = python.rfind(':');
  if (colon == std::string::npos) return {python, 0};
  try {
    return {python.substr(0, colon), static_cast<unsigned>(std::stoul(python.substr(colon + 1)))};
  } catch (const std::exception&) {
    return {python, 0};
  }
}

nlohmann::json result(const Finding& f, const std::string& fallbackFile, const std::vector<Rule>& rules) {
  size_t index = 0;
  while (index < rules.size() && f.kind != rules[index].id) ++index;
  const Rule* rule = index < rules.size() ? &rules[index] : nullptr;
  std::string text = f.title;
  for (const std::string& n : f.notes) text += "\n" + n;
  nlohmann::json r = {{"ruleId", f.kind}, {"level", rule && rule->severity == Severity::Warning ? "warning" : "error"},
                      {"message", {{"text", text}}}, {"locations", nlohmann::json::array()},
                      {"partialFingerprints", {{"tileDoctorFinding/v2", findingId(f)}}}};
  if (rule) r["ruleIndex"] = index;
  if (f.count > 1) r["occurrenceCount"] = f.count;
  auto [py, pyLine] = pythonPlace(f.loc.python);
  if (pyLine) r["locations"].push_back(location(py, pyLine, 0));
  if (!f.loc.file.empty()) r["locations"].push_back(location(f.loc.file, f.loc.line, f.loc.col));
  if (r["locations"].empty()) r["locations"].push_back(location(fallbackFile, 1, 0));  // the bundle's manifest
  return r;
}

}  // namespace

std::string renderSarif(const std::vector<RunSet>& sets, const CiOutcome& ci) {
  std::vector<Rule> rules = allRules();
  nlohmann::json driverRules = nlohmann::json::array();
  for (const Rule& r : rules)
    driverRules.push_back({{"id", r.id}, {"name", r.id}, {"shortDescription", {{"text", r.shortDescription}}},
                           {"fullDescription", {{"text", r.fullDescription}}}, {"help", {{"text", r.help}}},
                           {"defaultConfiguration", {{"level", severityName(r.severity)}}},
                           {"properties", {{"tags", {r.family}}}}});
  nlohmann::json results = nlohmann::json::array();
  for (const RunSet& set : sets)
    for (const Run& run : set.runs) {
      if (!run.report || !run.speaks()) continue;
      std::string fallback = set.script ? set.script->script : run.report->bundle;
      for (const Finding& f : run.report->findings) {
        results.push_back(result(f, fallback, rules));
        if (ci.baseline) results.back()["baselineState"] = "new";
      }
      // Known problems stay visible as such: a suppressed result (GitHub shows it as dismissed), an
      // unchanged one marked so.
      for (const Finding& f : run.report->suppressed) {
        results.push_back(result(f, fallback, rules));
        results.back()["suppressions"] = {{{"kind", "external"}, {"justification", "suppressed by " + f.suppressedBy}}};
      }
      for (const Finding& f : run.report->benign) {  // benign as a rule: shown dismissed, with why
        results.push_back(result(f, fallback, rules));
        const Rule* rule = findRule(f.kind);
        std::string option = rule && rule->reportedWith ? rule->reportedWith : "";
        results.back()["suppressions"] = {{{"kind", "external"}, {"justification", "benign as a rule; --" + option + " reports it"}}};
      }
      for (const Finding& f : run.report->baselined) {
        results.push_back(result(f, fallback, rules));
        results.back()["baselineState"] = "unchanged";
      }
    }
  for (const BaselineFinding& b : ci.absent) {
    nlohmann::json r = {{"ruleId", b.kind}, {"level", "none"}, {"baselineState", "absent"},
                        {"message", {{"text", b.message.empty() ? b.kind : b.message}}},
                        {"partialFingerprints", {{"tileDoctorFinding/v2", b.id}}}};
    auto [file, line] = pythonPlace(b.place);
    if (line) r["locations"] = {location(file, line, 0)};
    results.push_back(r);
  }
  // An input that could not be checked is the tool's notification, at the input: not a result, and not
  // silence either.
  nlohmann::json notifications = nlohmann::json::array();
  for (const RunSet& set : sets)
    for (const Run& run : set.runs) {
      if (run.error.empty()) continue;
      nlohmann::json n = {{"level", run.errorCode == kExitExecutorCannotRun ? "warning" : "error"},
                          {"message", {{"text", fmt::format("{}: {}", run.errorWhere.empty() ? run.bundle : run.errorWhere, run.error)}}},
                          {"descriptor", {{"id", stopKind(run.errorCode)}}},
                          {"properties", {{"exitCode", run.errorCode}}}};
      if (!run.bundle.empty()) n["locations"] = {location(run.bundle, 1, 0)};
      notifications.push_back(n);
    }
  int exitCode = exitCodeOf(sets);
  nlohmann::json invocation = {{"executionSuccessful", exitCode <= 1}, {"exitCode", exitCode}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  nlohmann::json log = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", {{{"tool", {{"driver", {{"name", "tile-doctor"}, {"informationUri", "https://tile-doctor.invalid/docs/guide-check.md"},
                                       {"rules", driverRules}}}}},
                 {"results", results},
                 {"invocations", {invocation}}}}}};
  return log.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace td
