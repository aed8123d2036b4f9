#include "bisect/probe_outcome.h"

#include <fmt/format.h>

#include "model/rules.h"

namespace td::bisect {

namespace {

std::string placeOf(const nlohmann::json& finding) {
  if (!finding.contains("location")) return "";
  const nlohmann::json& l = finding["location"];
  std::string place = fmt::format("{}:{}", l.value("file", std::string()), l.value("line", 0));
  // A script's kernel lives in a capture folder gone with its probe: then the Python line alone says where.
  bool gone = l.value("file", std::string()).find("/tile-doctor-capture-") != std::string::npos;
  if (l.contains("python")) place = gone ? l["python"].get<std::string>() : l["python"].get<std::string>() + " (" + place + ")";
  return place;
}

// Every launch's report in a bundle or script report, with its index in the script report's "launches"
// (-1: the bundle's own report or a kernel never launched).
std::vector<std::pair<const nlohmann::json*, int>> reportsIn(const nlohmann::json& report) {
  std::vector<std::pair<const nlohmann::json*, int>> out;
  if (!report.is_object()) return out;
  if (report.contains("findings")) out.push_back({&report, -1});
  for (const char* list : {"launches", "kernels"})
    if (report.contains(list))
      for (size_t i = 0; i < report[list].size(); ++i)
        if (report[list][i].contains("report"))
          out.push_back({&report[list][i]["report"], std::string(list) == "launches" ? static_cast<int>(i) : -1});
  return out;
}

ProbeOutcome unjudged(int exitCode, std::string kind, std::string message, std::string place = "") {
  ProbeOutcome o;
  o.verdict = Verdict::Error;
  o.exitCode = exitCode;
  o.kind = std::move(kind);
  o.message = std::move(message);
  o.place = std::move(place);
  return o;
}

}  // namespace

ProbeOutcome judgeProbe(const nlohmann::json& report, int exitCode, const std::string& stderrTail,
                        const FailCondition& failOn) {
  ProbeOutcome o;
  o.exitCode = exitCode;
  o.report = report;
  if (exitCode > 128) {  // the check itself died: a crash the executor's isolation did not contain
    if (!failOn.matches(rule::KernelCrash))
      return unjudged(exitCode, "probe-crash", fmt::format("the probe was killed by signal {}", exitCode - 128));
    o.verdict = Verdict::Fail;
    o.kind = "probe-crash";
    o.message = fmt::format("the check was killed by signal {}", exitCode - 128);
    return o;
  }
  for (auto [r, launchIndex] : reportsIn(report))
    for (const nlohmann::json& f : (*r)["findings"]) {
      std::string kind = f.value("kind", std::string());
      if (!failOn.matches(kind)) continue;
      o.verdict = Verdict::Fail;
      o.kind = kind;
      o.message = f.value("message", std::string());
      o.place = placeOf(f);
      o.launchIndex = launchIndex;
      return o;
    }
  // A launch stopped at --timeout while it still progressed neither fails nor passes: the rest is unchecked.
  for (auto [r, launchIndex] : reportsIn(report))
    for (const nlohmann::json& f : (*r)["findings"])
      if (f.value("kind", std::string()) == rule::KernelStillRunning)
        return unjudged(3, rule::KernelStillRunning, f.value("message", std::string()), placeOf(f));
  if (report.is_object() && report.contains("error") && report["error"].is_object()) {  // a stop report
    const nlohmann::json& e = report["error"];
    std::string place = e.value("file", std::string());
    if (e.value("line", 0) > 0) place += fmt::format(":{}", e.value("line", 0));
    return unjudged(exitCode, e.value("kind", std::string("error")), e.value("message", std::string()), place);
  }
  for (const char* list : {"launches", "kernels"})  // a script launch the check could not run at this shape
    if (report.contains(list))
      for (const nlohmann::json& item : report[list])
        if (item.contains("error") && !item.contains("report"))
          return unjudged(item["error"].value("exit_code", 4), "launch-error", item["error"].value("message", std::string()),
                          item["error"].value("where", std::string()));
  if (exitCode == 5 && failOn.any()) {
    o.verdict = Verdict::Fail;
    o.kind = "script-failed";
    o.message = report.contains("script_exit") ? report["script_exit"].value("why", std::string()) : "the script failed";
    o.place = report.contains("script_exit") ? report["script_exit"].value("where", std::string()) : "";
    return o;
  }
  if (exitCode == 2 || exitCode == 4 || exitCode == 6 || (exitCode != 0 && report.is_null())) {
    std::string tail = stderrTail;
    while (!tail.empty() && tail.back() == '\n') tail.pop_back();
    return unjudged(exitCode, exitCode == 2 ? "bad-input" : exitCode == 6 ? "cannot-run" : "internal", tail);
  }
  return o;  // passes: no finding the condition names (other findings stay in its report)
}

ProbeOutcome judgeKilledProbe(double seconds, const FailCondition& failOn) {
  std::string message = fmt::format("the probe did not finish within {:.0f} s (its --timeout and compile limit, "
                                    "with a margin) and was killed", seconds);
  if (!failOn.matches(rule::KernelHang)) return unjudged(3, "probe-timeout", message);
  ProbeOutcome o;
  o.verdict = Verdict::Fail;
  o.exitCode = 3;
  o.kind = "probe-timeout";
  o.message = message;
  o.seconds = seconds;
  return o;
}

}  // namespace td::bisect
