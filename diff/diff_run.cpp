#include "diff/diff_run.h"

#include <filesystem>
#include <fmt/format.h>

#include "diff/fp64_reference.h"
#include "frontend/input_error.h"
#include "frontend/profile.h"
#include "instrument/pipeline.h"

namespace td {

namespace {

const RuleVerdict& chosen(const OutputDiff& d, const std::string& rule) {
  for (const RuleVerdict& v : d.verdicts)
    if (v.rule == rule) return v;
  return d.verdicts.front();
}

OutputDiff diffOne(const CheckResult& tested, const ArgValue& out, std::vector<double> reference,
                   const std::vector<double>* fp64, uint64_t unshadowed, unsigned warpSize, const DiffRequest& req) {
  const std::array<int64_t, 3>& grid = tested.report.grid;
  OutputDiff d;
  const ArgSpec& s = *out.spec;
  if (reference.size() != s.elementCount())  // never compare part of an output and call it the whole
    throw InputError(s.name, 0, fmt::format("the reference of output '{}' has {} elements, the output {}", s.name,
                                            reference.size(), s.elementCount()));
  d.comparison = compareOutput(s.name, s.type, s.shape, valuesOf(out), std::move(reference), req.worst);
  OutputComparison resultVsFp64, referenceVsFp64;
  if (fp64) {
    d.hasFp64 = true;
    d.unshadowed = unshadowed;
    resultVsFp64 = compareOutput(s.name, s.type, s.shape, d.comparison.result, *fp64, 0);
    referenceVsFp64 = compareOutput(s.name, s.type, s.shape, d.comparison.reference, *fp64, 0);
    d.resultRmseVsFp64 = resultVsFp64.rmse;
    d.referenceRmseVsFp64 = referenceVsFp64.rmse;
  }
  // against fp64 itself, dynamo's rule has no second implementation to weigh the result against
  bool againstFp64 = req.against == "fp64", weigh = fp64 && !againstFp64;
  for (const char* rule : kRuleNames)
    d.verdicts.push_back(applyRule(rule, d.comparison, weigh ? &resultVsFp64 : nullptr, weigh ? &referenceVsFp64 : nullptr,
                                   req.overrides));
  if (againstFp64) d.verdicts.back().detail += " (against fp64 itself: the cosine fallback)";
  const RuleVerdict& v = chosen(d, req.rule);
  d.pass = v.evaluated && v.pass;
  // dynamo's allowance past allclose is not per element: its tiles use torch's
  const RuleVerdict& perElement = v.rule == "dynamo" && !v.pass ? d.verdicts.front() : v;
  d.tiles = tileMap(d.comparison, grid, perElement.rtol, perElement.atol);
  d.heat = heatCells(d.comparison, d.tiles, perElement.rtol, perElement.atol);
  d.warps = warpErrors(tested, d.comparison, warpSize, perElement.rtol, perElement.atol);
  if (!req.images.empty()) {
    d.image = (std::filesystem::path(req.images) / (s.name + ".png")).string();
    writeHeatMapPng(d.image, fmt::format("{} {}: {} rule, {}", s.name, elemTypeName(s.type), perElement.rule,
                                         d.pass ? "passes" : "fails"), d.heat, d.tiles);
  }
  return d;
}

}  // namespace

void requestDiffStates(CheckRequest& req, bool fp64) {
  if (fp64) requestFp64Shadows(req);
  if (CheckSet::parse(req.checks, req.settings).has("race")) req.readBackBufferStates = true;
}

bool needsFp64(const Against& against, const DiffRequest& req) {
  return against.kind == Against::Fp64 || req.rule == "dynamo" || req.check.checks.find("numerics") != std::string::npos;
}

bool DiffReport::pass() const {
  for (const OutputDiff& o : outputs)
    if (!o.pass) return false;
  return true;
}

int DiffReport::exitCode() const {
  if (tested.exitCode() == 3 || (hasReferenceRun && reference.exitCode() == 3)) return 3;
  return pass() ? 0 : 1;
}

void checkDiffRequest(const DiffRequest& req) {
  if (!isRuleName(req.rule))
    throw InputError("--rule", 0, fmt::format("'{}' is not a rule: torch, tilelang or dynamo", req.rule));
  if (!req.images.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(req.images, ec);
    if (!std::filesystem::is_directory(req.images)) throw InputError(req.images, 0, "--images: cannot make this folder");
  }
}

std::vector<OutputDiff> compareOutputs(const CheckResult& tested, std::map<std::string, std::vector<double>> refs,
                                       const Fp64Outputs* fp64, const DiffRequest& req) {
  std::vector<OutputDiff> outputs;
  unsigned warpSize = static_cast<unsigned>(loadProfile(tested.report.target).warpSize);
  for (const ArgValue& a : tested.args)
    if (a.spec->isBuffer && a.spec->output) {
      const std::vector<double>* shadow = nullptr;
      uint64_t unshadowed = 0;
      if (fp64)
        if (auto it = fp64->values.find(a.spec->name); it != fp64->values.end())
          shadow = &it->second, unshadowed = fp64->unshadowed.at(a.spec->name);
      outputs.push_back(diffOne(tested, a, std::move(refs[a.spec->name]), shadow, unshadowed, warpSize, req));
    }
  return outputs;
}

DiffReport runDiff(const DiffRequest& req) {
  checkDiffRequest(req);
  DiffReport report;
  report.rule = req.rule;
  report.against = parseAgainst(req.against);
  CheckRequest testedReq = req.check;
  report.fp64 = needsFp64(report.against, req);
  requestDiffStates(testedReq, report.fp64);
  CheckResult tested = runCheck(testedReq);
  report.tested = tested.report;
  Fp64Outputs fp64;
  if (report.fp64) fp64 = fp64Outputs(tested);
  std::map<std::string, std::vector<double>> refs;
  if (report.against.kind == Against::Fp64) {
    refs = fp64.values;
    report.referenceText = kFp64ReferenceText;
  } else if (report.against.kind == Against::Files) {
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
  report.outputs = compareOutputs(tested, std::move(refs), report.fp64 ? &fp64 : nullptr, req);
  return report;
}

}  // namespace td
