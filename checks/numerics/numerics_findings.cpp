#include "checks/numerics/numerics_findings.h"

#include <fmt/format.h>

#include "checks/numerics/numerics_abi.h"
#include "model/rules.h"

namespace td {

Finding nonFiniteFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b) {
  Finding f;
  f.kind = g.kind == TD_KIND_FP_INVALID ? rule::FpInvalid : rule::FpOverflow;
  const Site& s = sites.sites[g.site];
  f.loc = s.loc;
  f.count = g.hits;
  f.threads = g.threads;
  td_num_payload p = payloadOf<td_num_payload>(*g.records.front());
  bool nan = p.flags & TD_NUM_NAN;
  std::string result = nan ? "NaN" : (p.flags & TD_NUM_NEGATIVE) ? "-inf" : "inf";
  std::string operands = (p.lane >> 8) == 1 ? fmt::format("{}", p.a) : fmt::format("{} and {}", p.a, p.b);
  f.title = fmt::format("{} gave {} from finite operands ({})", s.what, result, operands);
  if ((p.flags & TD_NUM_SHADOW_FINITE) && nan)
    f.notes.push_back("the same computation on the wider shadow is finite: rounding made the operand invalid (a "
                      "cancellation leaving a small negative number, say); clamp it to the operation's domain");
  else if (p.flags & TD_NUM_SHADOW_FINITE)
    f.notes.push_back("the same operation on the wider shadow is finite: the value left its type's range here (half's "
                      "largest is 65504, float's 3.4e38)");
  else
    f.notes.push_back("non-finite in the wider shadow too: the operation itself has no finite result for these operands");
  if (s.what.rfind("exp", 0) == 0 || s.what.find("exp") != std::string::npos)
    f.notes.push_back("an exp of unscaled logits: subtract the row maximum first (softmax), so every exponent is <= 0");
  return f;
}

}  // namespace td
