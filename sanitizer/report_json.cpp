#include <nlohmann/json.hpp>

#include "sanitizer/reporters.h"

namespace td {

namespace {
nlohmann::json threadJson(const ThreadRef& t) {
  return {{"block", {t.block[0], t.block[1], t.block[2]}}, {"thread", {t.thread[0], t.thread[1], t.thread[2]}}};
}
}  // namespace

nlohmann::json findingJson(const Finding& f) {
  nlohmann::json x;
  x["id"] = findingId(f);
  x["kind"] = f.kind;
  x["message"] = f.title;
  x["fatal"] = f.fatal;
  x["count"] = f.count;
  if (!f.loc.file.empty())
  {
    x["location"] = {{"file", f.loc.file}, {"line", f.loc.line}, {"column", f.loc.col}, {"function", f.loc.function}};
    if (!f.loc.python.empty()) x["location"]["python"] = f.loc.python;
    if (!f.loc.helper.empty()) x["location"]["inside"] = f.loc.helper;
  }
  if (!f.partner.file.empty())
    x["other_access"] = {{"file", f.partner.file}, {"line", f.partner.line}, {"column", f.partner.col},
                         {"function", f.partner.function}};
  if (!f.related.empty()) {
    x["related"] = nlohmann::json::array();
    for (const auto& [what, loc] : f.related) {
      nlohmann::json r = {{"what", what}, {"file", loc.file}, {"line", loc.line}, {"column", loc.col}, {"function", loc.function}};
      if (!loc.python.empty()) r["python"] = loc.python;
      x["related"].push_back(r);
    }
  }
  if (!f.buffer.empty()) {
    x["buffer"] = f.buffer;
    x["coordinates"] = f.coords;
    x["element"] = f.element;
    x["byte_offset"] = f.byteOffset;
  }
  if (!f.access.empty()) x["access"] = f.access;
  if (f.width) x["width"] = f.width;
  x["threads"] = nlohmann::json::array();
  for (const ThreadRef& t : f.threads) x["threads"].push_back(threadJson(t));
  x["notes"] = f.notes;
  if (!f.suppressedBy.empty()) x["suppressed_by"] = f.suppressedBy;
  if (!f.baselineState.empty()) x["baseline_state"] = f.baselineState;
  return x;
}

nlohmann::json reportJson(const Report& r) {
  nlohmann::json j;
  j["tool"] = "tile-doctor";
  j["schema_version"] = 1;
  j["kernel"] = r.kernel;
  j["bundle"] = r.bundle;
  j["target"] = r.target;
  j["executor"] = r.executor;
  j["device"] = r.device;
  j["launch"] = {{"grid", r.grid}, {"block", r.block}, {"dynamic_shared_bytes", r.dynamicShared},
                 {"static_shared_bytes", r.staticShared}, {"launched", r.launched}, {"blocks_run", r.blocksRun},
                 {"blocks_total", r.blocksTotal}, {"blocks_selection", r.blocksNote.empty() ? "all" : r.blocksNote}};
  j["launch"]["runs"] = r.repeats;
  if (r.targetDynamicShared >= 0) j["launch"]["target_dynamic_shared_bytes"] = r.targetDynamicShared;
  j["records_dropped"] = r.recordsDropped;
  j["unchecked"] = r.unchecked;
  j["exit_code"] = r.exitCode();
  j["timing"] = {{"compile_seconds", r.compileSeconds}, {"run_seconds", r.runSeconds},
                 {"kernel_ms_median", r.kernelMsMedian}};
  j["findings"] = nlohmann::json::array();
  for (const Finding& f : r.findings) j["findings"].push_back(findingJson(f));
  if (!r.suppressed.empty()) {
    j["suppressed"] = nlohmann::json::array();
    for (const Finding& f : r.suppressed) j["suppressed"].push_back(findingJson(f));
  }
  if (!r.benign.empty()) {
    j["benign"] = nlohmann::json::array();
    for (const Finding& f : r.benign) j["benign"].push_back(findingJson(f));
  }
  if (!r.baselined.empty()) {
    j["baselined"] = nlohmann::json::array();
    for (const Finding& f : r.baselined) j["baselined"].push_back(findingJson(f));
  }
  return j;
}

// Paths are bytes, JSON is UTF-8: a byte that is not UTF-8 becomes U+FFFD rather than losing the report.
std::string renderJson(const Report& r) {
  return reportJson(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace td
