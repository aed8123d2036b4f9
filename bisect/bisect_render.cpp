// bisect-shape's reports: the probes in the order made, the threshold (or why there is none), the failure
// at it with its place, what changed across it, non-monotone evidence, and how to reproduce it.
#include <algorithm>
#include <fmt/format.h>

#include "bisect/bisect_report.h"

namespace td::bisect {

namespace {

const char* verdictName(Verdict v) { return v == Verdict::Pass ? "pass" : v == Verdict::Fail ? "fail" : "error"; }

std::string runsText(const ProbeOutcome& o) {
  if (o.runs <= 1) return "";
  return fmt::format(" ({} of {} runs failed{})", o.failures, o.runs, o.flaky() ? ": flaky" : "");
}

std::string residuesText(const Axis& a, const ResiduePattern& p) {
  if (!p.modulus) return fmt::format("no period in {} consecutive values from {}={}", p.values.size(), a.name, p.values.front());
  std::string rs;
  for (int64_t r : p.residues) rs += fmt::format("{}{}", rs.empty() ? "" : ", ", r);
  return fmt::format("fails where {} mod {} is {} (a period of {} values in {} probed from {}={})", a.name, p.modulus, rs,
                     p.modulus / a.align, p.values.size(), a.name, p.values.front());
}

std::string axisLine(const BisectReport& r, const AxisResult& ar) {
  const Axis& a = r.axes[ar.axis];
  std::string alone = r.axes.size() > 1 ? " (alone: the other axes at their lowest values)" : "";
  switch (ar.kind) {
    case AxisResult::Kind::Threshold:
      return fmt::format("{}: passes at {}={}, fails at {}={}{}", a.name, a.name, ar.lastPass, a.name, ar.firstFail, alone);
    case AxisResult::Kind::FailsAtLowest:
      return fmt::format("{}: fails already at its lowest value {}={}{}", a.name, a.name, ar.firstFail, alone);
    case AxisResult::Kind::NoFailure: {
      std::string vs;
      for (int64_t v : ar.probedPassing) vs += fmt::format("{}{}", vs.empty() ? "" : ", ", v);
      bool scanFailed = ar.residues && std::find(ar.residues->fails.begin(), ar.residues->fails.end(), true) != ar.residues->fails.end();
      return fmt::format("{}: {} [{}, {}]{} (passed at {}){}", a.name, scanFailed ? "no failure at the values the search probed in" : "no failure in",
                         a.lo, a.hi, alone, vs, scanFailed ? "; the residue scan found failures between them" : "");
    }
  }
  return a.name;
}

}  // namespace

int BisectReport::exitCode() const {
  if (result.stoppedBy) return result.stoppedBy->outcome.kind == "not-run" ? kExitBisectInterrupted
                                                                           : std::max(2, result.stoppedBy->outcome.exitCode);
  return result.failing ? 1 : 0;
}

std::string renderBisectText(const BisectReport& r, bool colour) {
  auto bold = [&](const std::string& s) { return colour ? "\033[1m" + s + "\033[0m" : s; };
  auto red = [&](const std::string& s) { return colour ? "\033[1;31m" + s + "\033[0m" : s; };
  std::string out = bold(fmt::format("tile-doctor bisect-shape {}", r.input)) +
                    fmt::format(" on {} ({} executor), failing on: {}\n", r.target, r.executor, r.failOn);
  for (const Axis& a : r.axes)
    out += fmt::format("  axis {}: {} .. {} in steps of {} ({} values)\n", a.name, a.lo, a.hi, a.align, a.count());
  out += "\n probe  shape                      verdict  what\n";
  for (size_t i = 0; i < r.result.probes.size(); ++i) {
    const ProbeRecord& p = r.result.probes[i];
    const ProbeOutcome& o = p.outcome;
    std::string what = o.verdict == Verdict::Pass ? "" : o.kind + (o.place.empty() ? "" : " at " + o.place);
    out += fmt::format("{:>6}  {:<26} {:<8} {}{}{}\n", i + 1, shapeText(r.axes, p.shape), verdictName(o.verdict), what,
                       runsText(o), o.cached ? " [cached]" : fmt::format(" [{:.1f} s]", o.seconds));
  }
  out += "\n";
  const SearchResult& s = r.result;
  if (s.stoppedBy) {
    const ProbeOutcome& o = s.stoppedBy->outcome;
    if (o.kind == "not-run")
      out += bold("interrupted") + ": the --max-probes budget is spent; the same command resumes from the probe cache\n";
    else
      out += red("stopped") + fmt::format(": the probe at {} could not be judged ({}, exit {}): {}{}\n",
                                          shapeText(r.axes, s.stoppedBy->shape), o.kind, o.exitCode, o.message,
                                          o.place.empty() ? "" : " [" + o.place + "]");
  }
  for (const AxisResult& ar : s.axes) out += "  " + axisLine(r, ar) + "\n";
  if (s.failing) {
    const ProbeRecord* f = s.record(*s.failing);
    if (s.lowestFails) {
      out += red("failure") + fmt::format(" at the lowest shape {}: no passing shape in the ranges\n", shapeText(r.axes, *s.failing));
    } else if (s.passing) {
      // Without monotony there is no threshold, only the first failure above a pass.
      out += red(s.monotone() ? "threshold" : "first failure") + fmt::format(": passes at {}, fails at {}{}\n", shapeText(r.axes, *s.passing),
                                            shapeText(r.axes, *s.failing),
                                            s.combination ? " (the smallest failing combination: lowering any one axis "
                                                            "by a step passes)" : "");
    }
    if (f)
      out += fmt::format("  the failure at {}: {}: {}\n{}", shapeText(r.axes, *s.failing), f->outcome.kind, f->outcome.message,
                         f->outcome.place.empty() ? "" : "    at " + f->outcome.place + "\n");
    if (!r.changes.empty() && s.passing) {
      out += fmt::format("  what changed from {} to {}:\n", shapeText(r.axes, *s.passing), shapeText(r.axes, *s.failing));
      for (const Change& c : r.changes) out += fmt::format("    {}: {}\n", c.what, c.text);
    }
  } else if (!s.stoppedBy) {
    out += bold("no failure") + " in the ranges probed";
    out += s.axes.size() > 1 ? " (each axis alone, and the corner of every highest value)\n" : "\n";
  }
  bool contradicted = false;
  for (const AxisResult& ar : s.axes) {
    const Axis& a = r.axes[ar.axis];
    for (size_t k = 0; k < ar.contradictions.size() && k < 3; ++k) {
      auto [failAt, passAt] = ar.contradictions[k];
      out += red("not monotone") + fmt::format(": {} fails at {}={} but passes at {}={} above it\n", a.name, a.name, failAt,
                                               a.name, passAt);
      contradicted = true;
    }
    if (ar.contradictions.size() > 3)
      out += fmt::format("  and {} more passes above a failure of {} (the JSON report lists them)\n", ar.contradictions.size() - 3, a.name);
    if (ar.residues) out += fmt::format("  residues of {}: {}\n", a.name, residuesText(a, *ar.residues));
  }
  if (contradicted && std::none_of(s.axes.begin(), s.axes.end(), [](const AxisResult& a) { return a.residues.has_value(); }))
    out += "  the threshold above assumes monotone failures; --scan-residues probes consecutive values for a period\n";
  for (const ProbeRecord& p : s.probes)
    if (p.outcome.flaky())
      out += fmt::format("  flaky: {} failed {} of {} runs\n", shapeText(r.axes, p.shape), p.outcome.failures, p.outcome.runs);
  for (const std::string& n : r.notes) out += "  note: " + n + "\n";
  out += fmt::format("probes: {} run, {} from the cache{}; {:.1f} s\n", r.probesRun, r.probesCached,
                     r.cache.empty() ? " (no cache)" : " (" + r.cache + ")", r.seconds);
  if (r.cacheWritesLost)
    out += fmt::format("  {} probe outcomes could not be written to the cache (they will run again next time)\n", r.cacheWritesLost);
  if (!r.repro.empty()) out += fmt::format("repro: {}  ({})\n", r.repro, r.reproCommand);
  return out;
}

nlohmann::json bisectJson(const BisectReport& r) {
  auto shapeJson = [&](const Shape& s) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t i = 0; i < r.axes.size(); ++i) j[r.axes[i].name] = s[i];
    return j;
  };
  auto outcomeJson = [&](const ProbeOutcome& o) {
    nlohmann::json j = {{"verdict", verdictName(o.verdict)}, {"exit_code", o.exitCode}, {"runs", o.runs},
                        {"failures", o.failures}, {"flaky", o.flaky()}, {"cached", o.cached}, {"seconds", o.seconds}};
    if (!o.kind.empty()) j["kind"] = o.kind;
    if (!o.message.empty()) j["message"] = o.message;
    if (!o.place.empty()) j["place"] = o.place;
    return j;
  };
  nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"command", "bisect-shape"}, {"input", r.input},
                      {"script", r.script},
                      {"target", r.target}, {"executor", r.executor}, {"fail_on", r.failOn}, {"confirm", r.confirm},
                      {"parallel", r.parallel}, {"axes", nlohmann::json::array()}, {"probes", nlohmann::json::array()}};
  for (const AxisResult& ar : r.result.axes) {
    const Axis& a = r.axes[ar.axis];
    static const char* kinds[] = {"threshold", "fails-at-lowest", "no-failure"};
    nlohmann::json ja = {{"name", a.name}, {"lo", a.lo}, {"hi", a.hi}, {"align", a.align},
                         {"result", kinds[static_cast<int>(ar.kind)]}, {"probes", ar.probes},
                         {"contradictions", nlohmann::json::array()}};
    if (ar.kind == AxisResult::Kind::Threshold) ja.update({{"last_pass", ar.lastPass}, {"first_fail", ar.firstFail}});
    if (ar.kind == AxisResult::Kind::FailsAtLowest) ja["first_fail"] = ar.firstFail;
    for (const auto& [f, p] : ar.contradictions) ja["contradictions"].push_back({{"fails_at", f}, {"passes_at", p}});
    if (ar.residues)
      ja["residues"] = {{"values", ar.residues->values}, {"fails", ar.residues->fails}, {"modulus", ar.residues->modulus},
                        {"failing_residues", ar.residues->residues}};
    j["axes"].push_back(ja);
  }
  for (size_t i = 0; i < r.result.probes.size(); ++i) {
    const ProbeRecord& p = r.result.probes[i];
    nlohmann::json jp = {{"number", i + 1}, {"shape", shapeJson(p.shape)}, {"stage", p.stage}};
    jp.update(outcomeJson(p.outcome));
    if (i < r.commands.size()) jp["command"] = r.commands[i];
    j["probes"].push_back(jp);
  }
  const SearchResult& s = r.result;
  j["monotone"] = s.monotone();
  j["combination"] = s.combination;
  j["lowest_fails"] = s.lowestFails;
  if (s.failing) {
    nlohmann::json jf = {{"failing", shapeJson(*s.failing)}};
    if (s.passing) jf["passing"] = shapeJson(*s.passing);
    if (!s.decidedBy.empty()) jf["axis"] = s.decidedBy;
    if (const ProbeRecord* f = s.record(*s.failing)) jf["failure"] = outcomeJson(f->outcome);
    jf["changes"] = nlohmann::json::array();
    for (const Change& c : r.changes) jf["changes"].push_back({{"what", c.what}, {"text", c.text}, {"crosses_limit", c.crossesLimit}});
    j["threshold"] = jf;
  }
  if (s.stoppedBy) j["stopped"] = {{"shape", shapeJson(s.stoppedBy->shape)}, {"outcome", outcomeJson(s.stoppedBy->outcome)}};
  j["probes_run"] = r.probesRun;
  j["probes_cached"] = r.probesCached;
  j["cache"] = r.cache;
  j["cache_writes_lost"] = r.cacheWritesLost;
  j["seconds"] = r.seconds;
  j["notes"] = r.notes;
  if (!r.repro.empty()) j["repro"] = {{"path", r.repro}, {"command", r.reproCommand}};
  j["exit_code"] = r.exitCode();
  return j;
}

}  // namespace td::bisect
