#include "checks/numerics/numerics_findings.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "checks/numerics/numerics_abi.h"
#include "checks/regions.h"
#include "runtime/launch.h"
#include "sanitizer/places.h"
#include "sanitizer/rules.h"

namespace td {

namespace {

double fromBits(uint64_t b) {
  double x;
  std::memcpy(&x, &b, 8);
  return x;
}

// The unit roundoff of a stored type, for the reports' scale.
double unitRoundoff(const std::string& type) {
  return type == "half" ? 0x1p-11 : type == "bfloat16" ? 0x1p-8 : type == "float" ? 0x1p-24 : 0x1p-53;
}

// The worst store's place: in its buffer; for shared memory the device runtime keeps the offset in the
// block's window (not in the array), so the array is named beside it.
std::string placeOf(const Site& s, uint64_t offset, const SiteTable& sites, const Bundle& b, Finding& f) {
  if (s.space == Space::Global) return globalPlace(s, static_cast<int64_t>(offset), b, f);
  f.byteOffset = static_cast<int64_t>(offset);
  std::string name = s.object >= 0 ? sites.shared[s.object].name : "";
  f.buffer = name.empty() ? "shared window" : name;
  return fmt::format("byte {} of the block's shared memory{}", offset, name.empty() ? "" : " (in __shared__ " + name + ")");
}

std::string cureFor(const std::string& type) {
  if (type == "half" || type == "bfloat16")
    return fmt::format("a {} result this far from exact arithmetic usually comes from accumulating in {}: keep the "
                       "accumulator in float (T.gemm / T.reduce with an fp32 fragment, float fma for __hfma chains) "
                       "and convert once at the store",
                       type, type);
  return "sum in a wider type, pairwise, or with Kahan compensation; look for cancellation between large terms";
}

}  // namespace

double defaultDriftThreshold(const std::string& type) {
  // Four units of roundoff for the 16-bit types (half: 2^-11, bfloat16: 2^-8): a correctly written kernel
  // (fp32 accumulators, one rounding at the store, or a few roundings of elementwise half arithmetic) stays
  // within one or two, while an fp16 accumulator rounds once per step (an mma's K = 16 products, an __hfma)
  // and drifts by several units after a few dozen steps. float's is set above the accumulation noise of
  // long fp32 reductions against an fp64 shadow (about sqrt(K) units of 2^-24).
  if (type == "half") return 0x1p-9;
  if (type == "bfloat16") return 0x1p-6;
  return 1e-4;
}

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

void driftFindings(const LaunchOutcome& out, const SiteTable& sites, const Bundle& b, std::vector<Finding>& into) {
  for (const RegionReadback& r : out.readbacks) {
    if (r.id != TD_REGION_NUM_SITES) continue;
    std::vector<std::pair<double, Finding>> found;
    for (size_t id = 0; id < sites.sites.size() && (id + 1) * sizeof(td_num_site) <= r.bytes.size(); ++id) {
      const Site& s = sites.sites[id];
      if (s.kind != SiteKind::Store) continue;
      td_num_site st;
      std::memcpy(&st, r.bytes.data() + id * sizeof st, sizeof st);
      if (st.count == 0) continue;
      double maxErr = fromBits(st.max_err), maxMag = fromBits(st.max_mag);
      double normwise = maxMag > 0 ? maxErr / maxMag : (maxErr > 0 ? INFINITY : 0);
      // A value the kernel itself rounded to a narrower type is held to that type's threshold.
      const std::string& precision = s.roundedThrough.empty() ? s.what : s.roundedThrough;
      double threshold = defaultDriftThreshold(precision);
      if (!(normwise > threshold)) continue;
      Finding f;
      f.kind = rule::PrecisionDrift;
      f.loc = s.loc;
      f.count = st.count;
      f.access = "write";
      std::string where = placeOf(s, st.where_offset, sites, b, f);
      f.threads.push_back(threadOfLinearIds(st.where_block, st.where_thread, b.grid, b.block));
      double u = unitRoundoff(precision);
      std::string stores = s.roundedThrough.empty() ? s.what : s.what + " (rounded through " + s.roundedThrough + ")";
      f.title = fmt::format("{} stores drift {:.3g} from exact arithmetic (normwise, {:.0f} units of {}'s roundoff; "
                            "threshold {:.3g})",
                            stores, normwise, normwise / u, precision, threshold);
      f.notes.push_back(fmt::format("largest error {:.6g} at {}: stored {:.9g}, the shadow says {:.9g}", maxErr, where,
                                    st.where_value, st.where_shadow));
      f.notes.push_back(fmt::format("over {} stores: mean error {:.3g} of the mean magnitude; largest elementwise "
                                    "relative error {:.3g}; largest error {:.4g} ulp of {}",
                                    st.count, st.sum_mag > 0 ? st.sum_err / st.sum_mag : 0.0, fromBits(st.max_rel),
                                    fromBits(st.max_ulps), s.what));
      f.notes.push_back(cureFor(precision));
      found.push_back({normwise, f});
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (auto& [drift, f] : found) into.push_back(std::move(f));
  }
}

}  // namespace td
