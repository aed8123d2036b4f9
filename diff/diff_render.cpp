#include "diff/diff_render.h"

#include <cmath>
#include <fmt/format.h>

#include "sanitizer/reporters.h"

namespace td {

namespace {

std::string shapeText(const OutputComparison& c) {
  std::string s;
  for (int64_t d : c.shape) s += (s.empty() ? "" : ", ") + std::to_string(d);
  return fmt::format("{}[{}]", elemTypeName(c.type), s);
}

std::string elementText(const std::string& name, const ElementError& e) {
  return fmt::format("{}  result {:.7g}  reference {:.7g}  abs {:.3g}  rel {:.3g}  ulps {:.3g}", coordText(name, e.coords),
                     e.result, e.reference, e.abs, e.rel, e.ulps);
}

std::string ulpLine(const OutputComparison& c) {
  std::string s;
  for (int b = 0; b < kUlpBuckets; ++b) {
    if (!c.ulpHistogram[b]) continue;
    std::string bound = b == 0 ? "0" : b == kUlpBuckets - 1 ? fmt::format(">{:g}", ulpBucketBound(b - 1))
                                                           : fmt::format("<={:g}", ulpBucketBound(b));
    s += fmt::format("  {}: {}", bound, c.ulpHistogram[b]);
  }
  return s.empty() ? "  (no finite pairs)" : s;
}

std::string locationText(const Finding& f) {
  if (f.loc.file.empty()) return "";
  return fmt::format(" at {}:{}{}", f.loc.file, f.loc.line, f.loc.python.empty() ? "" : " (" + f.loc.python + ")");
}

nlohmann::json elementJson(const ElementError& e) {
  auto num = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); };
  return {{"coordinates", e.coords}, {"result", num(e.result)}, {"reference", num(e.reference)},
          {"abs_error", num(e.abs)}, {"rel_error", num(e.rel)}, {"ulps", num(e.ulps)}};
}

std::string warpsText(const WarpErrors& w) {
  if (w.elements.empty()) return "  per warp: the race family's shadow tells who wrote what (--checks race, or all)\n";
  std::string s = fmt::format("  per warp of a block (the {}-lane warp that last wrote each element):", w.warpSize);
  for (size_t i = 0; i < w.elements.size(); ++i)
    if (w.elements[i]) s += fmt::format(" {}:{}", i, tileSymbol(w.worst[i]));
  if (w.unattributed)
    s += fmt::format("  no store: {} ({} elements no instrumented store wrote)", tileSymbol(w.unattributedWorst), w.unattributed);
  return s + "\n";
}

std::string outputText(const OutputDiff& o, const std::string& rule) {
  const OutputComparison& c = o.comparison;
  std::string s;
  s += fmt::format("\noutput {}  {}  {} elements: {} under the {} rule\n", c.name, shapeText(c), c.result.size(),
                   o.pass ? "passes" : "FAILS", rule);
  if (c.maxAbs.abs == 0) s += "  identical where both are finite\n";
  else s += fmt::format("  max abs error {:.4g} at {}; max rel error {:.4g} at {}\n", c.maxAbs.abs,
                        coordText(c.name, c.maxAbs.coords), c.maxRel.rel, coordText(c.name, c.maxRel.coords));
  s += fmt::format("  RMSE {:.4g}; largest |reference| {:.4g}; NaN/inf on one side only: {}; NaN on both: {}\n", c.rmse,
                   c.maxReference, c.nanMismatch, c.nanBoth);
  s += fmt::format("  ulps of {}:{}\n", elemTypeName(c.type), ulpLine(c));
  if (o.hasFp64)
    s += fmt::format("  against fp64 (the numerics shadows): RMSE of the result {:.4g}, of the reference {:.4g}{}\n",
                     o.resultRmseVsFp64, o.referenceRmseVsFp64,
                     o.unshadowed ? fmt::format("; {} elements had no shadow (their own value stood in)", o.unshadowed) : "");
  for (const RuleVerdict& v : o.verdicts) {
    std::string verdict = !v.evaluated ? "not evaluated" : v.pass ? "pass" : "FAIL";
    std::string first = v.firstMismatch && v.evaluated && !v.pass && v.rule != "dynamo"
                            ? fmt::format("; first mismatch at {}", coordText(c.name, v.firstMismatch->coords)) : "";
    s += fmt::format("  {:<9} {:<13} {}{}\n", v.rule, verdict, v.detail, first);
  }
  if (!c.worst.empty()) {
    s += "  worst elements:\n";
    for (const ElementError& e : c.worst) s += "    " + elementText(c.name, e) + "\n";
  }
  s += "  tiles:\n" + renderTileMap(o.tiles);
  s += warpsText(o.warps);
  if (!o.image.empty()) s += fmt::format("  heat map: {}\n", o.image);
  return s;
}

// What the run's checks found: where the difference comes from (precision-drift sites), or bugs behind it.
std::string findingsText(const std::vector<Finding>& findings) {
  if (findings.empty()) return "";
  std::string s = fmt::format("\nwhat the run's checks found ({} findings; `tile-doctor check` for the details):\n",
                              findings.size());
  for (const Finding& f : findings) s += fmt::format("  {}{}: {}\n", f.kind, locationText(f), f.title);
  return s;
}

// The fields a bundle's and a script's diff report open with.
nlohmann::json diffHead(const Against& a, const std::string& referenceText, const std::string& rule, bool pass,
                        int exitCode) {
  const char* kinds[] = {"fp64", "executor", "target", "files"};
  return {{"tool", "tile-doctor"}, {"schema_version", 1}, {"command", "diff"},
          {"against", {{"kind", kinds[a.kind]}, {"name", a.name}, {"description", referenceText}}}, {"rule", rule},
          {"pass", pass}, {"exit_code", exitCode}};
}

nlohmann::json outputJson(const OutputDiff& o) {
  const OutputComparison& c = o.comparison;
  nlohmann::json x;
  x["name"] = c.name;
  x["dtype"] = elemTypeName(c.type);
  x["shape"] = c.shape;
  x["elements"] = c.result.size();
  x["pass"] = o.pass;
  x["max_abs_error"] = elementJson(c.maxAbs);
  x["max_rel_error"] = elementJson(c.maxRel);
  x["rmse"] = c.rmse;
  x["max_abs_reference"] = c.maxReference;
  x["nonfinite_mismatches"] = c.nanMismatch;
  x["nan_both"] = c.nanBoth;
  x["ulp_histogram"] = nlohmann::json::array();
  for (int b = 0; b < kUlpBuckets; ++b)
    x["ulp_histogram"].push_back({{"at_most", b == kUlpBuckets - 1 ? nlohmann::json(nullptr) : nlohmann::json(ulpBucketBound(b))},
                                  {"count", c.ulpHistogram[b]}});
  x["worst"] = nlohmann::json::array();
  for (const ElementError& e : c.worst) x["worst"].push_back(elementJson(e));
  if (o.hasFp64)
    x["fp64"] = {{"result_rmse", o.resultRmseVsFp64}, {"reference_rmse", o.referenceRmseVsFp64},
                 {"unshadowed_elements", o.unshadowed}};
  x["rules"] = nlohmann::json::object();
  for (const RuleVerdict& v : o.verdicts) {
    nlohmann::json rv = {{"evaluated", v.evaluated}, {"pass", v.pass}, {"rtol", v.rtol}, {"atol", v.atol},
                         {"mismatched", v.mismatched}, {"allowed_mismatched", v.allowedMismatched}, {"detail", v.detail}};
    if (v.firstMismatch) rv["first_mismatch"] = elementJson(*v.firstMismatch);
    x["rules"][v.rule] = rv;
  }
  const TileMap& t = o.tiles;
  if (!o.image.empty()) x["image"] = o.image;
  if (!o.warps.elements.empty()) {
    double worst = o.warps.unattributedWorst;
    x["warps"] = {{"warp_size", o.warps.warpSize}, {"unattributed", o.warps.unattributed},
                  {"unattributed_worst_ratio", std::isfinite(worst) ? nlohmann::json(worst) : nlohmann::json(nullptr)},
                  {"per_warp", nlohmann::json::array()}};
    for (size_t i = 0; i < o.warps.elements.size(); ++i)
      if (o.warps.elements[i])
        x["warps"]["per_warp"].push_back({{"warp", i}, {"elements", o.warps.elements[i]},
                                          {"worst_ratio", std::isfinite(o.warps.worst[i]) ? nlohmann::json(o.warps.worst[i]) : nlohmann::json(nullptr)},
                                          {"mismatched", o.warps.mismatched[i]}});
  }
  x["tiles"] = {{"tile", {t.tileRows, t.tileCols}}, {"tiles", {t.tilesDown, t.tilesAcross}}, {"layout", t.layout},
                {"worst_ratio", nlohmann::json::array()}, {"mismatched", t.mismatched}};
  for (double w : t.worst) x["tiles"]["worst_ratio"].push_back(std::isfinite(w) ? nlohmann::json(w) : nlohmann::json(nullptr));
  return x;
}

}  // namespace

std::string renderDiffText(const DiffReport& r) {
  std::string s = fmt::format("tile-doctor diff: kernel {} ({}) on target {}, executor {}\n", r.tested.kernel,
                              r.tested.bundle, r.tested.target, r.tested.executor);
  s += fmt::format("  against {}\n", r.referenceText);
  int failing = 0;
  for (const OutputDiff& o : r.outputs) {
    failing += !o.pass;
    s += outputText(o, r.rule);
  }
  s += findingsText(r.tested.findings);
  s += fmt::format("\nSUMMARY: tile-doctor diff: {} of {} outputs {} the {} rule against {}\n",
                   failing ? failing : static_cast<int>(r.outputs.size()), r.outputs.size(), failing ? "fail" : "pass",
                   r.rule, r.referenceText);
  if (r.exitCode() == 3) s += "the run under test or the reference run crashed or hung: its outputs are not the kernel's\n";
  return s;
}

nlohmann::json diffJson(const DiffReport& r) {
  nlohmann::json j = diffHead(r.against, r.referenceText, r.rule, r.pass(), r.exitCode());
  j["run"] = reportJson(r.tested);
  if (r.hasReferenceRun) j["reference_run"] = reportJson(r.reference);
  j["outputs"] = nlohmann::json::array();
  for (const OutputDiff& o : r.outputs) j["outputs"].push_back(outputJson(o));
  return j;
}

std::string renderScriptDiffText(const ScriptDiffReport& r) {
  std::string s = fmt::format("tile-doctor diff: script {}\n  against {}\n", r.tested.script ? r.tested.script->script : "",
                              r.referenceText);
  int failing = 0, outputs = 0;
  for (const LaunchDiff& l : r.launches) {
    s += fmt::format("\n== {} ({}), kernel {}, at {}\n", l.launch ? fmt::format("launch {}", l.launch) : "kernel never launched",
                     l.folder, l.entry, l.calledAt);
    if (!l.error.empty()) s += "  not compared: " + l.error + "\n";
    for (const OutputDiff& o : l.outputs) {
      ++outputs;
      failing += !o.pass;
      s += outputText(o, r.rule);
    }
  }
  std::vector<Finding> findings;
  for (const Run& run : r.tested.runs)
    if (run.report && run.speaks()) findings.insert(findings.end(), run.report->findings.begin(), run.report->findings.end());
  s += findingsText(findings);
  s += fmt::format("\nSUMMARY: tile-doctor diff: {} launches compared, {} of {} outputs {} the {} rule against {}\n",
                   r.launches.size(), failing ? failing : outputs, outputs, failing ? "fail" : "pass", r.rule, r.referenceText);
  if (r.exitCode() == 2) s += "some launches could not be compared (above): the diff is incomplete\n";
  if (r.exitCode() == 3) s += "a launch crashed or hung: its outputs are not the kernel's\n";
  return s;
}

nlohmann::json scriptDiffJson(const ScriptDiffReport& r) {
  nlohmann::json j = diffHead(r.against, r.referenceText, r.rule, r.pass(), r.exitCode());
  j["script"] = r.tested.script ? r.tested.script->script : "";
  j["run"] = scriptJson(r.tested);
  j["launches"] = nlohmann::json::array();
  for (const LaunchDiff& l : r.launches) {
    nlohmann::json x = {{"launch", l.launch}, {"folder", l.folder}, {"entry", l.entry}, {"called_at", l.calledAt},
                        {"outputs", nlohmann::json::array()}};
    if (!l.error.empty()) x["error"] = l.error;
    for (const OutputDiff& o : l.outputs) x["outputs"].push_back(outputJson(o));
    j["launches"].push_back(x);
  }
  return j;
}

}  // namespace td
