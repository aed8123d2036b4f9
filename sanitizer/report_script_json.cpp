// The JSON report of a script check (docs/report-format.md, "script"): the script, each launch and each
// kernel never launched with its report or error, the notes, how the script ended, the exit code.
#include <filesystem>

#include "sanitizer/reporters.h"

namespace td {

nlohmann::json scriptJson(const RunSet& set) {
  const ScriptRun& s = *set.script;
  nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"script", s.scriptAbsolute},
                      {"tilelang_version", s.tilelangVersion}, {"arch", s.arch}, {"host_device", s.hostDevice},
                      {"launches", nlohmann::json::array()}, {"kernels", nlohmann::json::array()},
                      {"notes", nlohmann::json::array()}};
  for (const Run& r : set.runs) {
    nlohmann::json jk = {{"entry", r.entry}, {"compiled_at", r.compiledAt}, {"folder", r.folder}};
    if (r.launch > 0)
      jk.update({{"launch", r.launch}, {"part", r.part}, {"parts", r.parts}, {"called_at", r.calledAt},
                 {"shapes", r.shapes}, {"scalars", r.scalars}, {"checked", r.checked}});
    if (r.sameAs) jk["same_as"] = r.sameAs;
    if (s.keptBundles) jk["bundle"] = r.bundle;
    if (r.report) jk["report"] = reportJson(*r.report);
    if (!r.error.empty()) jk["error"] = {{"where", r.errorWhere}, {"message", r.error}, {"exit_code", r.errorCode}};
    j[r.launch > 0 ? "launches" : "kernels"].push_back(jk);
  }
  for (const ScriptNote& n : s.notes) j["notes"].push_back({{"where", n.where}, {"text", n.text}});
  j["script_exit"] = {{"code", s.exitCode}, {"where", s.exitWhere}, {"why", s.exitWhy}};
  j["exit_code"] = set.exitCode();
  return j;
}

}  // namespace td
