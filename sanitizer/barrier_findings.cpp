#include "sanitizer/barrier_findings.h"

#include <fmt/format.h>

#include "sanitizer/records.h"

namespace td {

Finding barrierFinding(unsigned site, const std::vector<const td_record*>& recs, const std::vector<ThreadRef>& threads,
                       uint64_t count, const SiteTable& sites, const Bundle& b) {
  const Site& s = sites.sites[site];
  Finding f;
  f.kind = "barrier-divergence";
  f.loc = s.loc;
  f.count = count;
  std::string what = s.what.empty() ? "the barrier" : s.what;
  int64_t blockThreads = b.block[0] * b.block[1] * b.block[2];
  if (recs.empty()) {
    f.title = fmt::format("{} was not reached by every thread of the block", what);
    return f;
  }
  const td_record& r = *recs.front();
  ThreadRef waiting = recordThread(r);
  f.threads = threads;
  uint32_t otherSite = static_cast<uint32_t>(r.addr >> 32);
  uint64_t other = r.addr & 0xffffffffu;
  ThreadRef o = threadOfLinearId(waiting, other, b.block);
  if (otherSite == 0xffffffffu) {
    f.title = fmt::format("{} completed with {} of {} threads: {} exited while the others waited", what, r.offset,
                          blockThreads, threadText(o));
    f.notes.push_back("a barrier under a thread-dependent branch: every thread of the block must reach it (or none)");
  } else {
    const Site* os = otherSite < sites.sites.size() ? &sites.sites[otherSite] : nullptr;
    f.title = fmt::format("threads of one block wait at different barriers: {} here, {} at {}", what, threadText(o),
                          os ? os->loc.str() : "another barrier");
    if (os) f.partner = os->loc;
    f.notes.push_back("the two groups take different paths to a __syncthreads(); they release each other, so the "
                      "data each barrier was meant to order is not ordered");
  }
  return f;
}

}  // namespace td
