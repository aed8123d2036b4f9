#include "sanitizer/baseline.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

#include "frontend/paths.h"
#include "frontend/input_error.h"

namespace td {

namespace {

std::string placeOf(const nlohmann::json& finding) {
  if (!finding.contains("location")) return "";
  const nlohmann::json& l = finding["location"];
  if (l.contains("python")) return l["python"].get<std::string>();
  return fmt::format("{}:{}", l.value("file", std::string()), l.value("line", 0));
}

// Every finding object under "findings", "baselined" or "suppressed", anywhere in a report.
void collectReport(const nlohmann::json& j, std::vector<BaselineFinding>& out) {
  if (j.is_array()) {
    for (const nlohmann::json& e : j) collectReport(e, out);
    return;
  }
  if (!j.is_object()) return;
  for (const char* list : {"findings", "baselined", "suppressed"})
    if (j.contains(list) && j[list].is_array())
      for (const nlohmann::json& f : j[list])
        if (f.is_object() && f.contains("id") && f.contains("kind"))
          out.push_back({f["id"], f["kind"], f.value("message", std::string()), placeOf(f)});
  for (const auto& [key, value] : j.items())
    if (key != "findings" && key != "baselined" && key != "suppressed") collectReport(value, out);
}

void collectSarif(const nlohmann::json& j, std::vector<BaselineFinding>& out) {
  for (const nlohmann::json& run : j["runs"]) {
    const nlohmann::json results = run.value("results", nlohmann::json::array());
    for (const nlohmann::json& r : results) {
      if (r.value("baselineState", std::string()) == "absent") continue;
      const nlohmann::json fp = r.value("partialFingerprints", nlohmann::json::object());
      if (!fp.contains("tileDoctorFinding/v2")) continue;
      std::string place;
      if (r.contains("locations") && !r["locations"].empty()) {
        const nlohmann::json& pl = r["locations"][0]["physicalLocation"];
        place = fmt::format("{}:{}", pl["artifactLocation"].value("uri", std::string()), pl["region"].value("startLine", 0));
      }
      out.push_back({fp["tileDoctorFinding/v2"], r.value("ruleId", std::string()),
                     r.contains("message") ? r["message"].value("text", std::string()) : "", place});
    }
  }
}

}  // namespace

Baseline loadBaselineFile(const std::string& path) {
  nlohmann::json j = nlohmann::json::parse(readInputFile(path, "the baseline", 512u << 20), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw InputError(path, 0, "the baseline is not a tile-doctor JSON report or SARIF log");
  Baseline b;
  b.source = path;
  if (j.contains("runs") && j.value("version", std::string()) == "2.1.0") collectSarif(j, b.findings);
  else if (j.value("tool", std::string()) == "tile-doctor") collectReport(j, b.findings);
  else throw InputError(path, 0, "the baseline is not a tile-doctor JSON report or SARIF log");
  if (j.value("tool", std::string()) == "tile-doctor" && j.contains("error"))
    throw InputError(path, 0, "the baseline is the report of a check that stopped (it holds no findings to compare)");
  return b;
}

void applyBaseline(const Baseline& baseline, std::vector<RunSet>& sets, CiOutcome& ci) {
  std::set<std::string> known, seen;
  for (const BaselineFinding& f : baseline.findings) known.insert(f.id);
  setFindingsAside(sets, [&](Report& r, Finding& f) -> std::vector<Finding>* {
    std::string id = findingId(f);
    seen.insert(id);
    bool unchanged = known.count(id) > 0;
    f.baselineState = unchanged ? "unchanged" : "new";
    return unchanged ? &r.baselined : nullptr;
  });
  for (const RunSet& set : sets)  // a suppressed finding is still there: not absent from the baseline
    for (const Run& run : set.runs)
      if (run.report)
        for (const Finding& f : run.report->suppressed) seen.insert(findingId(f));
  ci.baseline = true;
  ci.baselineSource = baseline.source;
  std::set<std::string> reported;
  for (const BaselineFinding& f : baseline.findings)
    if (!seen.count(f.id) && reported.insert(f.id).second) ci.absent.push_back(f);
}

}  // namespace td
