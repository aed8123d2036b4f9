// The rules of the numerics family's finding kinds (model/rules.h lists every kind's id).
#include "model/rules.h"

namespace td {

std::vector<Rule> numericsRules() {
  return {
      {rule::PrecisionDrift, "numerics", Severity::Warning, "Stored values drift from exact arithmetic",
       "The values a store site wrote differ from the same computation carried out in a wider type (fp32 shadows "
       "for half and bfloat16, fp64 for float) by more than the stored type's threshold, measured normwise: the "
       "largest error over the largest magnitude the site stored. Typical causes: a long reduction accumulated in "
       "half or bfloat16, a sum of many small terms, cancellation.",
       "Accumulate in float (T.gemm / T.reduce with an fp32 accumulator fragment, __hfma chains replaced by float "
       "fma); sum pairwise or with Kahan compensation; subtract the maximum before exp.",
       {"location", "buffer", "coordinates", "threads"}},
      {rule::SubnormalValues, "numerics", Severity::Warning, "Stored values in the subnormal range (--subnormals)",
       "Stores wrote values below the stored type's smallest normal number (half: 6.1e-5), which keep fewer "
       "significant bits, or zeros where exact arithmetic gives a nonzero that small (flushed or rounded away). "
       "Counted per site when --subnormals is given.",
       "Scale the values into the type's normal range (a per-tensor scale, a wider type for the small "
       "intermediates), or check that the GPU's flush-to-zero mode is what the kernel expects.",
       {"location", "buffer"}},
      {rule::FpOverflow, "numerics", Severity::Error, "An infinity born from finite operands",
       "An operation on finite values gave +-inf: the result overflowed its type (exp of a large logit, a product "
       "or a conversion to half above 65504), or a division by zero. Reported where it happened, once per site; "
       "the infinities it then spreads are not reported again.",
       "Scale before the operation (subtract the row maximum before exp), accumulate in a wider type, or guard the "
       "divisor.",
       fields::stop},
      {rule::FpInvalid, "numerics", Severity::Error, "A NaN born from finite operands",
       "An operation on finite values gave NaN: 0/0, sqrt or log of a negative number, inf - inf inside a math "
       "function. Reported where it happened, once per site.",
       "Guard the operand's domain (clamp before sqrt/log, an epsilon in the divisor).",
       fields::stop},
  };
}

}  // namespace td
