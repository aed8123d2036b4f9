// The parts of a report that span a whole check: one input's JSON whatever it came to, what the CI options
// (suppressions, baseline, shard) did, in JSON and in text.
#include <fmt/format.h>

#include "runtime/executor_limit.h"
#include "sanitizer/reporters.h"

namespace td {

const char* stopKind(int code) {
  switch (code) {
    case 2: return "bad-input";
    case 3: return "timeout";
    case kExitExecutorCannotRun: return "cannot-run";
    default: return "internal";
  }
}

const char* stopWord(int code) {
  return code == 2 ? "error" : code == 3 ? "stopped" : code == 4 ? "internal error" : "cannot run";
}

nlohmann::json stopJson(int exitCode, const char* kind, const std::string& file, int line, const std::string& message) {
  return {{"tool", "tile-doctor"}, {"schema_version", 1}, {"exit_code", exitCode},
          {"error", {{"kind", kind}, {"file", file}, {"line", line}, {"message", message}}}};
}

nlohmann::json inputJson(const RunSet& set) {
  if (set.script) return scriptJson(set);
  if (!set.runs.empty() && set.runs[0].report) return reportJson(*set.runs[0].report);
  if (set.runs.empty()) return stopJson(4, stopKind(4), "", 0, "nothing ran");
  const Run& r = set.runs[0];
  return stopJson(r.errorCode, stopKind(r.errorCode), r.errorWhere, 0, r.error);
}

nlohmann::json ciJson(const CiOutcome& ci) {
  nlohmann::json j = nlohmann::json::object();
  if (ci.suppressing) {
    j["suppressions"] = nlohmann::json::array();
    for (const SuppressionUse& s : ci.suppressions)
      j["suppressions"].push_back({{"file", s.file}, {"line", s.line}, {"rule", s.rule}, {"pattern", s.pattern},
                                   {"matched", s.matched}});
  }
  if (ci.baseline) {
    nlohmann::json absent = nlohmann::json::array();
    for (const BaselineFinding& b : ci.absent)
      absent.push_back({{"id", b.id}, {"kind", b.kind}, {"message", b.message}, {"place", b.place}});
    j["baseline"] = {{"source", ci.baselineSource}, {"absent", absent}};
  }
  if (!ci.shard.empty()) j["shard"] = {{"shard", ci.shard}, {"inputs_skipped", ci.shardSkipped}};
  return j;
}

std::string renderCiText(const CiOutcome& ci, const std::vector<RunSet>& sets) {
  std::string out;
  int unchanged = 0, fresh = 0;
  for (const RunSet& s : sets)
    for (const Run& r : s.runs)
      if (r.report) {
        unchanged += static_cast<int>(r.report->baselined.size());
        fresh += static_cast<int>(r.report->findings.size());
      }
  if (ci.suppressing) {
    for (const SuppressionUse& s : ci.suppressions)
      if (!s.matched) out += fmt::format("note: unused suppression {}:{}: {}:{} matched no finding\n", s.file, s.line, s.rule, s.pattern);
  }
  if (ci.baseline) {
    out += fmt::format("baseline {}: {} new, {} unchanged, {} absent\n", ci.baselineSource, fresh, unchanged, ci.absent.size());
    for (const BaselineFinding& b : ci.absent)
      out += fmt::format("    absent now: {}: {}{}\n", b.kind, b.message, b.place.empty() ? "" : " at " + b.place);
  }
  if (!ci.shard.empty())
    out += fmt::format("shard {}: {} input{} here, {} left to the other shards\n", ci.shard, sets.size(), sets.size() == 1 ? "" : "s",
                       ci.shardSkipped);
  return out;
}

}  // namespace td
