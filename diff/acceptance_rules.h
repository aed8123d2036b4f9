// The acceptance rules users gate kernel outputs on, applied to one output against its reference:
// PyTorch's torch.testing.assert_close (per-dtype rtol/atol, every element), TileLang's
// torch_assert_close (rtol 1e-2, atol 1e-3, up to 0.1% of the elements may miss) and dynamo's same()
// (allclose at tol, else the result's RMSE against fp64 within a multiple of the reference's).
// Sources: ../shared/research/anchors.md 4.1, wave2-anchors.md table 0 and 2.3.
#pragma once
#include <optional>
#include <string>

#include "diff/output_comparison.h"

namespace td {

struct RuleOverrides {
  std::optional<double> rtol, atol;  // --rtol, --atol: replace the rule's own
};

struct RuleVerdict {
  std::string rule;       // "torch", "tilelang", "dynamo"
  bool evaluated = true;  // false: the rule needs what this comparison lacks (detail says what)
  bool pass = false;
  double rtol = 0, atol = 0;
  uint64_t mismatched = 0;         // elements with |a - e| > atol + rtol |e| (NaN as the rule counts it)
  uint64_t allowedMismatched = 0;  // how many the rule lets pass
  std::optional<ElementError> firstMismatch;
  std::string detail;              // the figures the verdict rests on, one line
};

const char* const kRuleNames[] = {"torch", "tilelang", "dynamo"};
bool isRuleName(const std::string& name);

// PyTorch's defaults for the output's type (float16 1e-3/1e-5, bfloat16 1.6e-2/1e-5, float32 1.3e-6/1e-5,
// float64 1e-7/1e-7, integers exact); NaN equals nothing (equal_nan=False).
RuleVerdict torchRule(const OutputComparison& c, const RuleOverrides& o);

// TileLang's torch_assert_close: rtol 1e-2, atol 1e-3, NaN equal to NaN, fails when more than
// floor(0.001 * elements) elements miss.
RuleVerdict tilelangRule(const OutputComparison& c, const RuleOverrides& o);

// dynamo's same(ref, res, fp64_ref, tol=1e-4): passes when allclose(atol=rtol=tol); else, given the fp64
// reference, when RMSE(result, fp64) <= multiplier * RMSE(reference, fp64) + tol / 10 (multiplier 3 for
// float16/bfloat16 outputs or fewer than 1000 elements, else 2); without one, when the cosine similarity
// of the flattened outputs is at least 0.99 (the fallback TorchBench uses). `resultVsFp64` / `referenceVsFp64`:
// the same output compared with the fp64 reference (null when there is none).
RuleVerdict dynamoRule(const OutputComparison& c, const OutputComparison* resultVsFp64,
                       const OutputComparison* referenceVsFp64, const RuleOverrides& o);

RuleVerdict applyRule(const std::string& rule, const OutputComparison& c, const OutputComparison* resultVsFp64,
                      const OutputComparison* referenceVsFp64, const RuleOverrides& o);

}  // namespace td
