#include "diff/output_comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/finding.h"

namespace td {

double ulpBucketBound(int bucket) {
  if (bucket == 0) return 0;
  if (bucket >= kUlpBuckets - 1) return std::numeric_limits<double>::infinity();
  return std::ldexp(1.0, bucket - 1);
}

static int ulpBucket(double ulps) {
  if (ulps == 0) return 0;
  for (int b = 1; b < kUlpBuckets - 1; ++b)
    if (ulps <= ulpBucketBound(b)) return b;
  return kUlpBuckets - 1;
}

std::vector<int64_t> coordinatesOf(uint64_t i, const std::vector<int64_t>& shape) {
  return unravel(static_cast<int64_t>(i), shape);
}

double ulpOf(ElemType type, double x) {
  int mantissa = 0, minExponent = 0;
  switch (type) {
    case ElemType::F16: mantissa = 10, minExponent = -14; break;
    case ElemType::BF16: mantissa = 7, minExponent = -126; break;
    case ElemType::F32: mantissa = 23, minExponent = -126; break;
    case ElemType::F64: mantissa = 52, minExponent = -1022; break;
    case ElemType::F8E4M3: mantissa = 3, minExponent = -6; break;
    case ElemType::F8E5M2: mantissa = 2, minExponent = -14; break;
    case ElemType::F8E8M0: mantissa = 0, minExponent = -127; break;
    default: return 1;
  }
  int e = x == 0 || !std::isfinite(x) ? minExponent : std::max(std::ilogb(x), minExponent);
  return std::ldexp(1.0, e - mantissa);
}

double allowanceRatio(double a, double e, double rtol, double atol) {
  if (std::isnan(a) && std::isnan(e)) return 0;
  if (!std::isfinite(a) || !std::isfinite(e)) return a == e ? 0 : INFINITY;
  double allowance = atol + rtol * std::fabs(e), err = std::fabs(a - e);
  return allowance > 0 ? err / allowance : err > 0 ? INFINITY : 0;
}

OutputComparison compareOutput(const std::string& name, ElemType type, const std::vector<int64_t>& shape,
                               std::vector<double> result, std::vector<double> reference, size_t worstCount) {
  OutputComparison c;
  c.name = name;
  c.type = type;
  c.shape = shape;
  double sumSquares = 0;
  uint64_t finite = 0;
  auto byAbs = [](const ElementError& a, const ElementError& b) { return a.abs > b.abs || (a.abs == b.abs && a.index < b.index); };
  for (uint64_t i = 0; i < result.size() && i < reference.size(); ++i) {
    double r = result[i], e = reference[i];
    if (std::isnan(r) && std::isnan(e)) { ++c.nanBoth; continue; }
    if (!std::isfinite(r) || !std::isfinite(e)) {
      if (!(r == e)) ++c.nanMismatch;  // equal infinities are equal
      continue;
    }
    ElementError x;
    x.index = i;
    x.result = r;
    x.reference = e;
    x.abs = std::fabs(r - e);
    x.rel = x.abs == 0 ? 0 : e == 0 ? std::numeric_limits<double>::infinity() : x.abs / std::fabs(e);
    x.ulps = x.abs / ulpOf(type, e);
    c.maxReference = std::max(c.maxReference, std::fabs(e));
    sumSquares += x.abs * x.abs;
    ++finite;
    ++c.ulpHistogram[ulpBucket(x.ulps)];
    if (x.abs > c.maxAbs.abs) c.maxAbs = x;
    if (x.rel > c.maxRel.rel) c.maxRel = x;
    if (worstCount && x.abs > 0 && (c.worst.size() < worstCount || byAbs(x, c.worst.back()))) {
      c.worst.insert(std::upper_bound(c.worst.begin(), c.worst.end(), x, byAbs), x);
      if (c.worst.size() > worstCount) c.worst.pop_back();
    }
  }
  c.rmse = finite ? std::sqrt(sumSquares / static_cast<double>(finite)) : 0;
  for (ElementError* x : {&c.maxAbs, &c.maxRel}) x->coords = coordinatesOf(x->index, shape);
  for (ElementError& x : c.worst) x.coords = coordinatesOf(x.index, shape);
  c.result = std::move(result);
  c.reference = std::move(reference);
  return c;
}

}  // namespace td
