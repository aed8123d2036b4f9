// One output of a kernel against a reference of it, element by element: the largest errors and where,
// the root-mean-square error, how the errors spread in units in the last place of the output's type, and
// the worst elements with their coordinates. What `tile-doctor diff` reports per output.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "frontend/elem_type.h"

namespace td {

struct ElementError {
  uint64_t index = 0;
  std::vector<int64_t> coords;
  double result = 0, reference = 0;
  double abs = 0;   // |result - reference|
  double rel = 0;   // abs / |reference| (inf where the reference is 0 and they differ)
  double ulps = 0;  // abs in units in the last place of the output's type at the reference's magnitude
};

// ULP histogram buckets: [0] identical, [1] (0, 1], then (2^(k-2), 2^(k-1)] for bucket k; the last open.
constexpr int kUlpBuckets = 26;
double ulpBucketBound(int bucket);  // the bucket's upper bound (inf for the last)

struct OutputComparison {
  std::string name;
  ElemType type = ElemType::F32;
  std::vector<int64_t> shape;
  std::vector<double> result, reference;  // both as doubles, row-major
  uint64_t nanBoth = 0;      // NaN in both (equal under equal_nan, a mismatch otherwise)
  uint64_t nanMismatch = 0;  // NaN (or inf) on one side only, or infinities of different sign
  ElementError maxAbs, maxRel;
  double rmse = 0;           // over the elements finite on both sides
  double maxReference = 0;   // largest |reference| (finite)
  std::vector<uint64_t> ulpHistogram = std::vector<uint64_t>(kUlpBuckets, 0);
  std::vector<ElementError> worst;  // by absolute error, largest first
};

// Coordinates of flat index `i` in a row-major array of `shape`.
std::vector<int64_t> coordinatesOf(uint64_t i, const std::vector<int64_t>& shape);

// One unit in the last place of `type` at magnitude |x| (1 for integer types).
double ulpOf(ElemType type, double x);

// |result - reference| as a multiple of a rule's allowance atol + rtol |reference|: 0 for equal values (NaN
// pairs included), inf for a non-finite mismatch. What tiles, warps and heat maps show.
double allowanceRatio(double result, double reference, double rtol, double atol);

// Compares `result` with `reference` (same length) and keeps the `worstCount` worst elements.
OutputComparison compareOutput(const std::string& name, ElemType type, const std::vector<int64_t>& shape,
                               std::vector<double> result, std::vector<double> reference, size_t worstCount);

}  // namespace td
