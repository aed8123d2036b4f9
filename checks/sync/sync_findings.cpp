#include "checks/sync/sync_findings.h"
#include "model/rules.h"

#include <algorithm>

#include <fmt/format.h>

#include "checks/sync/sync_abi.h"
#include "model/records.h"

namespace td {

namespace {

Finding barrierFinding(unsigned site, const std::vector<const td_record*>& recs, const std::vector<ThreadRef>& threads,
                       uint64_t count, const SiteTable& sites, const Bundle& b) {
  const Site& s = sites.sites[site];
  Finding f;
  f.kind = rule::BarrierDivergence;
  f.loc = s.loc;
  f.count = count;
  std::string what = s.what.empty() ? "the barrier" : s.what;
  int64_t blockThreads = b.threadsPerBlock();
  if (recs.empty()) {
    f.title = fmt::format("{} was not reached by every thread of the block", what);
    return f;
  }
  // Threads at two barriers, where the site has both: the cause, of which an exit while others wait at the
  // next barrier is often the consequence.
  const td_record* chosen = recs.front();
  for (const td_record* r : recs)
    if (uint32_t other = payloadOf<td_barrier_payload>(*r).partner_site; other != TD_SITE_EXITED && other != TD_SITE_WAITING) {
      chosen = r;
      break;
    }
  const td_record& r = *chosen;
  ThreadRef here = recordThread(r);
  f.threads = threads;  // the chosen record's thread first: the one the title speaks for
  auto mine = std::find_if(f.threads.begin(), f.threads.end(),
                           [&](const ThreadRef& t) { return threadOrder(t) == threadOrder(here); });
  if (mine != f.threads.end()) std::rotate(f.threads.begin(), mine, mine + 1);
  const td_barrier_payload p = payloadOf<td_barrier_payload>(r);
  uint32_t otherSite = p.partner_site;
  ThreadRef other = threadOfLinearId(here, p.partner_thread, b.block);
  if (otherSite == TD_SITE_EXITED || otherSite == TD_SITE_WAITING) {
    const ThreadRef& exited = otherSite == TD_SITE_EXITED ? other : here;
    const ThreadRef& waiting = otherSite == TD_SITE_EXITED ? here : other;
    f.title = fmt::format("{} completes without all {} threads of the block: {} exited while {} waited here", what,
                          blockThreads, threadText(exited), threadText(waiting));
    f.notes.push_back("a barrier under a thread-dependent branch: every thread of the block must reach it (or none)");
  } else {
    const Site* os = otherSite < sites.sites.size() ? &sites.sites[otherSite] : nullptr;
    f.title = fmt::format("threads of one block wait at different barriers: {} here, {} at {}", what, threadText(other),
                          os ? os->loc.str() : "another barrier");
    if (os) f.partner = os->loc;
    f.notes.push_back("the two groups take different paths to a __syncthreads(); they release each other, so the "
                      "data each barrier was meant to order is not ordered");
  }
  return f;
}

Finding warpMaskFinding(unsigned site, const std::vector<const td_record*>& recs, const std::vector<ThreadRef>& threads,
                        uint64_t count, const SiteTable& sites) {
  const Site& s = sites.sites[site];
  Finding f;
  f.loc = s.loc;
  f.count = count;
  f.threads = threads;
  std::string what = s.what.empty() ? "this warp operation" : s.what;
  if (recs.empty()) {
    f.kind = rule::WarpMask;
    f.title = fmt::format("the member mask of {} is wrong for the lanes that run it", what);
    return f;
  }
  const td_record& r = *recs.front();
  const td_mask_payload p = payloadOf<td_mask_payload>(r);
  uint32_t mask = p.mask;
  if (p.problem == TD_MASK_SHIFT_PAST_32) {
    f.kind = rule::WarpSizeAssumption;
    f.title = fmt::format("a 32-bit {} by {} on a 64-lane wave: a lane bit (1u << lane) for lanes 32-63 does not fit in "
                          "32 bits", what, mask);
    f.notes.push_back("shifting a 32-bit value by 32 or more is undefined (x86 and many GPUs shift by the amount "
                      "modulo 32, so lane 40 sets bit 8); on a 64-lane wave build lane masks in 64 bits "
                      "(1ull << lane, unsigned long long / uint64_t masks)");
    return f;
  }
  if (p.problem == TD_MASK_32_ON_WAVE64) {
    f.kind = rule::WarpSizeAssumption;
    f.title = fmt::format("{} with the 32-lane full mask 0xffffffff on a 64-lane wave: it names lanes 0-31 only", what);
    f.notes.push_back("written for 32-lane warps; tile-doctor ran it over the whole wave, as the kernel means. For "
                      "MACA pass a mask of the whole wave (__activemask(), or a 64-bit mask where the API takes one) "
                      "and derive lane counts from warpSize");
    return f;
  }
  f.kind = rule::WarpMask;
  if (p.problem == TD_MASK_MISSES_SELF)
    f.title = fmt::format("{} by {} with mask 0x{:08x}, which leaves out the calling lane", what,
                          threadText(recordThread(r)), mask);
  else
    f.title = fmt::format("{} with mask 0x{:08x} names lanes that have exited", what, mask);
  f.notes.push_back("every lane that runs a warp collective must be in its mask, and every lane the mask names must "
                    "reach it; otherwise the result is undefined (it may hang on the GPU)");
  return f;
}

}  // namespace

Finding syncFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b) {
  if (g.kind == TD_KIND_WARP_MASK) return warpMaskFinding(g.site, g.records, g.threads, g.hits, sites);
  return barrierFinding(g.site, g.records, g.threads, g.hits, sites, b);
}

}  // namespace td
