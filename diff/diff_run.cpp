#include "diff/diff_run.h"

#include <fmt/format.h>

#include "frontend/input_error.h"

namespace td {

namespace {

const RuleVerdict& chosen(const OutputDiff& d, const std::string& rule) {
  for (const RuleVerdict& v : d.verdicts)
    if (v.rule == rule) return v;
  return d.verdicts.front();
}

OutputDiff diffOne(const ArgValue& out, std::vector<double> reference, const DiffRequest& req,
                   const std::array<int64_t, 3>& grid) {
  OutputDiff d;
  d.comparison = compareOutput(out.spec->name, out.spec->type, out.spec->shape, valuesOf(out), std::move(reference),
                               req.worst);
  for (const char* rule : kRuleNames) d.verdicts.push_back(applyRule(rule, d.comparison, nullptr, nullptr, req.overrides));
  const RuleVerdict& v = chosen(d, req.rule);
  d.pass = v.evaluated && v.pass;
  // dynamo's allowance past allclose is not per element: its tiles use torch's
  const RuleVerdict& perElement = v.rule == "dynamo" && !v.pass ? d.verdicts.front() : v;
  d.tiles = tileMap(d.comparison, grid, perElement.rtol, perElement.atol);
  return d;
}

}  // namespace

bool DiffReport::pass() const {
  for (const OutputDiff& o : outputs)
    if (!o.pass) return false;
  return true;
}

int DiffReport::exitCode() const {
  if (tested.exitCode() == 3 || (hasReferenceRun && reference.exitCode() == 3)) return 3;
  return pass() ? 0 : 1;
}

DiffReport runDiff(const DiffRequest& req) {
  if (!isRuleName(req.rule))
    throw InputError("--rule", 0, fmt::format("'{}' is not a rule: torch, tilelang or dynamo", req.rule));
  DiffReport report;
  report.rule = req.rule;
  report.against = parseAgainst(req.against);
  if (report.against.kind == Against::Fp64)
    throw InputError("--against", 0, "fp64 needs the numerics family's shadow outputs, which this build does not read "
                                     "back yet: compare with saved outputs, another target or another executor");
  CheckResult tested = runCheck(req.check);
  report.tested = tested.report;
  std::map<std::string, std::vector<double>> refs;
  if (report.against.kind == Against::Files) {
    refs = readReferenceFiles(report.against, tested);
    report.referenceText = fmt::format("saved outputs in {}", report.against.name);
  } else {
    CheckRequest other = req.check;
    if (report.against.kind == Against::Executor) other.executor = report.against.name;
    else other.target = report.against.name;
    other.saveInputs.clear();
    CheckResult ref = runCheck(other);
    report.reference = ref.report;
    report.hasReferenceRun = true;
    report.referenceText = fmt::format("the same bundle for {} on the {} executor", ref.report.target, ref.report.executor);
    for (const ArgValue& a : ref.args)
      if (a.spec->isBuffer && a.spec->output) refs[a.spec->name] = valuesOf(a);
  }
  for (const ArgValue& a : tested.args)
    if (a.spec->isBuffer && a.spec->output) report.outputs.push_back(diffOne(a, std::move(refs[a.spec->name]), req, tested.report.grid));
  return report;
}

}  // namespace td
