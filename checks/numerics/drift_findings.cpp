// precision-drift findings from the TD_REGION_NUM_SITES region read back: per source location of a store
// (an unrolled epilogue's stores at one line are one place to the user), the normwise drift of what it
// stored; where the value came from a drifting loop accumulator, the finding stands at the accumulator,
// with the iteration it passed the threshold. Accumulators are not reported on their own: early in a
// reduction whose terms cancel, a partial sum is small beside its terms and its relative error large,
// which matters only where it reaches a store.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <map>

#include "checks/numerics/numerics_abi.h"
#include "checks/numerics/numerics_findings.h"
#include "checks/numerics/numerics_settings.h"
#include "model/regions.h"
#include "model/launch.h"
#include "checks/places.h"
#include "model/rules.h"

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

// The smallest normal number of a stored type.
double smallestNormal(const std::string& type) {
  return type == "half" ? 0x1p-14 : type == "double" ? 0x1p-1022 : 0x1p-126;
}

double levelValue(int level) { return std::ldexp(1.0, level - TD_NUM_LEVELS); }

// Sites at one source location, their counters merged.
struct Place {
  std::vector<unsigned> ids;
  std::vector<td_num_site> each;  // per site, in program order (an unrolled loop's copies in iteration order)
  td_num_site merged{};
  std::vector<int> origins;  // the accumulator sites they come from
};

void merge(td_num_site& into, const td_num_site& s) {
  if (s.max_err > into.max_err || into.count == 0) {
    into.max_err = s.max_err;
    into.where_value = s.where_value;
    into.where_shadow = s.where_shadow;
    into.where_offset = s.where_offset;
    into.where_block = s.where_block;
    into.where_thread = s.where_thread;
  }
  into.count += s.count;
  into.max_mag = std::max(into.max_mag, s.max_mag);
  into.max_ulps = std::max(into.max_ulps, s.max_ulps);
  into.max_rel = std::max(into.max_rel, s.max_rel);
  into.sum_err += s.sum_err;
  into.subnormal += s.subnormal;
  into.flushed += s.flushed;
  into.sum_mag += s.sum_mag;
  for (int l = 0; l < TD_NUM_LEVELS; ++l) into.first_iter[l] = std::max(into.first_iter[l], s.first_iter[l]);
}

// The site records read back (each site's slots merged), grouped by kind and source location (in site order).
std::vector<Place> placesOf(const RegionReadback& r, const SiteTable& sites, SiteKind kind) {
  std::vector<Place> places;
  std::map<std::tuple<std::string, unsigned, unsigned, std::string, std::string>, size_t> index;
  const size_t record = TD_NUM_SLOTS * sizeof(td_num_site);
  for (size_t id = 0; id < sites.sites.size() && (id + 1) * record <= r.bytes.size(); ++id) {
    const Site& s = sites.sites[id];
    if (s.kind != kind) continue;
    td_num_site st{};
    for (unsigned slot = 0; slot < TD_NUM_SLOTS; ++slot) {
      td_num_site copy;
      std::memcpy(&copy, r.bytes.data() + id * record + slot * sizeof copy, sizeof copy);
      merge(st, copy);  // an untouched copy changes nothing
    }
    if (kind == SiteKind::Store && st.count == 0) continue;
    auto key = std::make_tuple(s.loc.file, s.loc.line, s.loc.col, s.what, s.roundedThrough);
    auto [it, fresh] = index.emplace(key, places.size());
    if (fresh) places.emplace_back();
    Place& p = places[it->second];
    p.ids.push_back(static_cast<unsigned>(id));
    p.each.push_back(st);
    merge(p.merged, st);
    if (s.origin >= 0 && std::find(p.origins.begin(), p.origins.end(), s.origin) == p.origins.end())
      p.origins.push_back(s.origin);
  }
  return places;
}

// The first iteration at which a place's drift reached `level`, if it did.
std::optional<unsigned> firstIteration(const td_num_site& s, int level) {
  if (s.first_iter[level] == 0) return std::nullopt;
  return ~s.first_iter[level];
}

// max|value - shadow| over max|shadow| of what a site stored, the magnitude floored at the stored type's
// smallest normal (an absolute tolerance, as torch.testing.assert_close has one): values that decay into
// the subnormal range, or to zero where exact arithmetic keeps a 1e-250, are not drift (--subnormals
// counts them).
double normwiseOf(const td_num_site& s, const std::string& type) {
  return fromBits(s.max_err) / std::max(fromBits(s.max_mag), smallestNormal(type));
}

// A line whose stores are several in the compiled code (a loop unrolled, fully: a tree reduction's steps):
// which of them, in program order, first passed the threshold, and the drift of each.
std::string copiesNote(const Place& p, const std::string& type, double threshold) {
  size_t stored = 0, first = 0;
  std::string each;
  for (size_t k = 0; k < p.each.size(); ++k) {
    if (p.each[k].count == 0) continue;
    ++stored;
    double d = normwiseOf(p.each[k], type);
    if (!first && d > threshold) first = stored;
    if (p.each.size() <= 16) each += fmt::format("{}{:.3g}", each.empty() ? "" : ", ", d);
  }
  if (stored < 2 || !first) return "";
  return fmt::format("this line is {} stores in the compiled code (an unrolled loop's iterations, in order): the first "
                     "to pass the threshold is number {}{}",
                     stored, first, each.empty() ? "" : "; drift of each: " + each);
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

std::string cureFor(const std::string& type, bool accumulator) {
  if (type == "half" || type == "bfloat16")
    return fmt::format("a {} result this far from exact arithmetic usually comes from {} in {}: keep the "
                       "accumulator in float (T.gemm / T.reduce with an fp32 fragment, accum_dtype=\"float\", float "
                       "fma for __hfma chains) and convert once at the store",
                       type, accumulator ? "this accumulator adding" : "accumulating", type);
  return "sum in a wider type, pairwise, or with Kahan compensation; look for cancellation between large terms";
}

// When a place's drift first passed the threshold: the iteration of its loop (an accumulator's counted
// across the loops it is carried through) and, for an accumulator, about how many updates that is.
std::string iterationNote(const td_num_site& s, double threshold, const char* what, unsigned updatesPerStep = 0) {
  int level = driftLevelAtOrBelow(threshold);
  std::optional<unsigned> first = firstIteration(s, level);
  if (!first) return "";
  std::string updates = updatesPerStep > 1 ? fmt::format(" (about {} updates: each iteration updates it {} times)",
                                                         static_cast<uint64_t>(*first) * updatesPerStep, updatesPerStep)
                                           : "";
  return fmt::format("{} passed {:.3g} of its magnitude first at iteration {} of its loop{}, counting from 0, the "
                     "earliest of any thread{}{}",
                     what, levelValue(level), *first, updates,
                     updatesPerStep ? fmt::format(" (checked every {} iterations)", TD_NUM_STRIDE) : "",
                     levelValue(level) < threshold ? fmt::format("; {:.3g} is the drift level at or below the threshold", levelValue(level)) : "");
}

// subnormal-values (--subnormals): per store place, how many stores wrote a subnormal or a zero exact
// arithmetic would not give. Listed after the drift findings (ranked at drift 0).
void subnormalFindings(const RegionReadback& r, const SiteTable& sites, const Bundle& b,
                       std::vector<std::pair<double, Finding>>& found) {
  for (const Place& p : placesOf(r, sites, SiteKind::Store)) {
    const td_num_site& st = p.merged;
    if (!st.subnormal && !st.flushed) continue;
    const Site& s = sites.sites[p.ids.front()];
    Finding f;
    f.kind = rule::SubnormalValues;
    f.loc = s.loc;
    f.count = st.subnormal + st.flushed;
    f.access = "write";
    if (s.space == Space::Global && s.object >= 0 && static_cast<size_t>(s.object) < b.args.size())
      f.buffer = b.args[s.object].name;
    else if (s.space == Space::Shared && s.object >= 0)
      f.buffer = sites.shared[s.object].name;
    double normal = smallestNormal(s.what);
    f.title = fmt::format("{} of {} {} stores here were subnormal (below {:.3g}, with fewer significant bits){}", st.subnormal,
                          st.count, s.what, normal,
                          st.flushed ? fmt::format(", and {} stored zero where exact arithmetic gives a nonzero that small",
                                                   st.flushed)
                                     : "");
    found.push_back({0.0, f});
  }
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

void driftFindings(const LaunchOutcome& out, const SiteTable& sites, const Bundle& b, const FamilySettings& settings,
                   std::vector<Finding>& into) {
  auto thresholdOf = [&](const std::string& type) { return driftThreshold(settings, type); };
  for (const RegionReadback& r : out.readbacks) {
    if (r.id != TD_REGION_NUM_SITES) continue;
    std::vector<Place> accumulators = placesOf(r, sites, SiteKind::Accumulator);
    auto accumulatorOf = [&](int site) -> const Place* {
      for (const Place& a : accumulators)
        if (std::find(a.ids.begin(), a.ids.end(), static_cast<unsigned>(site)) != a.ids.end()) return &a;
      return nullptr;
    };
    std::vector<std::pair<double, Finding>> found;
    for (const Place& p : placesOf(r, sites, SiteKind::Store)) {
      const Site& s = sites.sites[p.ids.front()];
      const td_num_site& st = p.merged;
      // A value the kernel itself rounded to a narrower type is held to that type's threshold.
      const std::string& precision = s.roundedThrough.empty() ? s.what : s.roundedThrough;
      double maxErr = fromBits(st.max_err), normwise = normwiseOf(st, precision);
      double threshold = thresholdOf(precision);
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
      // The accumulator the drift grew in (the one that passed its threshold earliest): the finding stands there.
      const Place* acc = nullptr;
      std::optional<unsigned> earliest;
      for (int origin : p.origins) {
        const Place* a = accumulatorOf(origin);
        if (!a) continue;
        std::optional<unsigned> first =
            firstIteration(a->merged, driftLevelAtOrBelow(thresholdOf(sites.sites[a->ids.front()].what)));
        if (first && (!earliest || *first < *earliest)) acc = a, earliest = first;
      }
      const Site* accSite = acc ? &sites.sites[acc->ids.front()] : nullptr;
      if (acc) {
        f.loc = accSite->loc;
        f.title = fmt::format("{} accumulator drifts: its {} stores end {:.3g} from exact arithmetic (normwise, {:.3g} "
                              "units of {}'s roundoff; threshold {:.3g})",
                              accSite->what, stores, normwise, normwise / u, precision, threshold);
        f.notes.push_back(iterationNote(acc->merged, thresholdOf(accSite->what), "the accumulator", accSite->updatesPerStep));
        f.related.push_back({"stored at", s.loc});
      } else {
        f.title = fmt::format("{} stores drift {:.3g} from exact arithmetic (normwise, {:.3g} units of {}'s roundoff; "
                              "threshold {:.3g})",
                              stores, normwise, normwise / u, precision, threshold);
        std::string storeNote = iterationNote(st, threshold, "the stored value");
        if (!storeNote.empty()) f.notes.push_back(storeNote);
        std::string copies = copiesNote(p, precision, threshold);
        if (!copies.empty()) f.notes.push_back(copies);
      }
      f.notes.push_back(fmt::format("largest error {:.6g} at {}: stored {:.9g}, the shadow says {:.9g}", maxErr, where,
                                    st.where_value, st.where_shadow));
      f.notes.push_back(fmt::format("over {} stores: mean error {:.3g} of the mean magnitude; largest elementwise "
                                    "relative error {:.3g}; largest error {:.4g} ulps of {}",
                                    st.count, st.sum_mag > 0 ? st.sum_err / st.sum_mag : 0.0, fromBits(st.max_rel),
                                    fromBits(st.max_ulps), s.what));
      f.notes.push_back(cureFor(precision, acc != nullptr));
      found.push_back({normwise, f});
    }
    if (countsSubnormals(settings)) subnormalFindings(r, sites, b, found);
    std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (auto& [drift, f] : found) into.push_back(std::move(f));
  }
}

}  // namespace td
