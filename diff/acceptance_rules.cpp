#include "diff/acceptance_rules.h"

#include <cmath>
#include <fmt/format.h>

namespace td {

namespace {

struct Tolerance {
  double rtol, atol;
};

Tolerance torchDefaults(ElemType t) {
  switch (t) {
    case ElemType::F16: return {1e-3, 1e-5};
    case ElemType::BF16: return {1.6e-2, 1e-5};
    case ElemType::F32: return {1.3e-6, 1e-5};
    case ElemType::F64: return {1e-7, 1e-7};
    default: return isFloat(t) ? Tolerance{1e-3, 1e-5} : Tolerance{0, 0};  // fp8: as float16's
  }
}

// Counts the elements outside atol + rtol |e| (torch.isclose), NaN pairs as equalNan says, and notes the first.
void countMismatches(const OutputComparison& c, bool equalNan, RuleVerdict& v) {
  for (uint64_t i = 0; i < c.result.size() && i < c.reference.size(); ++i) {
    double a = c.result[i], e = c.reference[i];
    bool close;
    if (std::isnan(a) || std::isnan(e)) close = equalNan && std::isnan(a) && std::isnan(e);
    else if (!std::isfinite(a) || !std::isfinite(e)) close = a == e;
    else close = std::fabs(a - e) <= v.atol + v.rtol * std::fabs(e);
    if (close) continue;
    if (v.mismatched++ == 0) {
      ElementError x;
      x.index = i;
      x.coords = coordinatesOf(i, c.shape);
      x.result = a;
      x.reference = e;
      x.abs = std::fabs(a - e);
      x.rel = e == 0 ? INFINITY : x.abs / std::fabs(e);
      x.ulps = x.abs / ulpOf(c.type, e);
      v.firstMismatch = x;
    }
  }
}

RuleVerdict elementRule(const char* name, const OutputComparison& c, Tolerance t, const RuleOverrides& o, bool equalNan,
                        double allowedRatio) {
  RuleVerdict v;
  v.rule = name;
  v.rtol = o.rtol.value_or(t.rtol);
  v.atol = o.atol.value_or(t.atol);
  countMismatches(c, equalNan, v);
  v.allowedMismatched = static_cast<uint64_t>(static_cast<double>(c.result.size()) * allowedRatio);
  v.pass = v.mismatched <= v.allowedMismatched;
  v.detail = fmt::format("{} of {} elements outside atol {:g} + rtol {:g} * |reference| ({} allowed)", v.mismatched,
                         c.result.size(), v.atol, v.rtol, v.allowedMismatched);
  return v;
}

// Of the pairs finite on both sides, as dynamo's fallback compares the flattened tensors.
double cosineSimilarity(const OutputComparison& c) {
  double dot = 0, a2 = 0, b2 = 0;
  for (size_t i = 0; i < c.result.size() && i < c.reference.size(); ++i) {
    double a = c.result[i], b = c.reference[i];
    if (!std::isfinite(a) || !std::isfinite(b)) continue;
    dot += a * b, a2 += a * a, b2 += b * b;
  }
  return a2 == 0 && b2 == 0 ? 1 : a2 == 0 || b2 == 0 ? 0 : dot / std::sqrt(a2 * b2);
}

}  // namespace

bool isRuleName(const std::string& name) {
  for (const char* r : kRuleNames)
    if (name == r) return true;
  return false;
}

RuleVerdict torchRule(const OutputComparison& c, const RuleOverrides& o) {
  return elementRule("torch", c, torchDefaults(c.type), o, false, 0);
}

RuleVerdict tilelangRule(const OutputComparison& c, const RuleOverrides& o) {
  return elementRule("tilelang", c, {1e-2, 1e-3}, o, true, 0.001);
}

RuleVerdict dynamoRule(const OutputComparison& c, const OutputComparison* resultVsFp64,
                       const OutputComparison* referenceVsFp64, const RuleOverrides& o) {
  double tol = o.atol.value_or(o.rtol.value_or(1e-4));
  RuleVerdict v = elementRule("dynamo", c, {tol, tol}, {}, false, 0);
  if (v.pass) {
    v.detail = fmt::format("allclose at tol {:g}", tol);
    return v;
  }
  if (!resultVsFp64 || !referenceVsFp64) {  // no fp64 to weigh both sides against: the cosine fallback
    double cosine = cosineSimilarity(c);
    v.pass = cosine >= 0.99;
    v.detail = fmt::format("{} elements outside tol {:g}; without an fp64 reference (--checks numerics or --rule dynamo "
                           "gives one) the cosine fallback: similarity {:.6f} {} 0.99",
                           v.mismatched, tol, cosine, v.pass ? ">=" : "<");
    return v;
  }
  uint64_t n = c.result.size();
  bool narrow = c.type == ElemType::F16 || c.type == ElemType::BF16;
  double multiplier = n < 1000 || tol >= 2e-2 || narrow ? 3.0 : 2.0;
  double resError = resultVsFp64->rmse, refError = referenceVsFp64->rmse;
  v.pass = resError <= multiplier * refError + tol / 10;
  v.detail = fmt::format("RMSE (result - fp64) {:.4g}, (reference - fp64) {:.4g}: {} {:g} x {:.4g} + {:g}", resError,
                         refError, v.pass ? "within" : "beyond", multiplier, refError, tol / 10);
  return v;
}

RuleVerdict applyRule(const std::string& rule, const OutputComparison& c, const OutputComparison* resultVsFp64,
                      const OutputComparison* referenceVsFp64, const RuleOverrides& o) {
  if (rule == "tilelang") return tilelangRule(c, o);
  if (rule == "dynamo") return dynamoRule(c, resultVsFp64, referenceVsFp64, o);
  return torchRule(c, o);
}

}  // namespace td
