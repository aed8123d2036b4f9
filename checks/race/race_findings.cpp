#include "checks/race/race_findings.h"
#include "model/rules.h"

#include <algorithm>
#include <fmt/format.h>

#include "checks/race/race_abi.h"
#include "instrument/ptx_catalogue.h"
#include "checks/places.h"
#include "model/records.h"

namespace td {

namespace {

// The partner thread of a race record: its linear id, in the block the record names (partner_block).
ThreadRef partnerOf(const td_record& r, const Bundle& b) {
  td_race_payload p = payloadOf<td_race_payload>(r);
  return threadOfLinearIds(p.partner_block, p.partner_thread, b.grid, b.block);
}

const char* accessWord(SiteKind k) { return k == SiteKind::Store ? "write" : k == SiteKind::Atomic ? "atomic" : "read"; }

}  // namespace

Finding raceFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b) {
  const unsigned kind = g.kind;
  const std::vector<const td_record*>& recs = g.records;
  const uint64_t count = g.hits;
  const std::vector<ThreadRef>& threads = g.threads;
  const Site& s = sites.sites[g.site];
  Finding f;
  f.loc = s.loc;
  f.count = count;
  f.access = accessWord(s.kind);
  f.width = s.size;
  f.threads = threads;
  bool global = kind >= TD_KIND_GLOBAL_RAW && kind != TD_KIND_SHARED_SAME_VALUE;
  auto place = [&](int64_t offset) {
    return global ? globalPlace(s, offset, b, f) : sharedPlace(s, offset, sites, f);
  };
  if (kind == TD_KIND_SHARED_UNINIT || kind == TD_KIND_GLOBAL_UNINIT) {
    f.kind = global ? rule::UninitializedGlobalRead : rule::UninitializedSharedRead;
    std::string where = recs.empty() ? (global ? "an uninitialised buffer" : "shared memory") : place(payloadOf<td_race_payload>(*recs.front()).offset);
    f.title = global ? fmt::format("read of {} before any thread wrote it in this launch", where)
                     : fmt::format("read of {} before any thread of the block wrote it", where);
    f.notes.push_back(global ? "the manifest says this buffer starts uninitialised (init = \"uninit\", as torch.empty "
                               "allocates it); the value read is whatever was in memory"
                             : "shared memory starts undefined in every block; the value read is whatever was there "
                               "(when another thread writes it later with no barrier between, this is a race seen from "
                               "the read)");
    return f;
  }
  bool same = kind == TD_KIND_SHARED_SAME_VALUE || kind == TD_KIND_GLOBAL_SAME_VALUE;
  static const char* kinds[2][3] = {{rule::SharedRaceRaw, rule::SharedRaceWar, rule::SharedRaceWaw},
                                    {rule::GlobalRaceRaw, rule::GlobalRaceWar, rule::GlobalRaceWaw}};
  static const char* hazards[3] = {"read-after-write", "write-after-read", "write-after-write"};
  // 0 RAW, 1 WAR, 2 WAW; a same-value write's record says which it was.
  unsigned hazardOf = same ? (recs.empty() ? 2u : std::min(payloadOf<td_race_payload>(*recs.front()).hazard, 2u))
                           : kind - (global ? TD_KIND_GLOBAL_RAW : TD_KIND_SHARED_RAW);
  f.kind = same ? (global ? rule::GlobalRaceSameValue : rule::SharedRaceSameValue) : kinds[global][hazardOf];
  const char* hazard = same ? "same-value write" : hazards[hazardOf];
  const char* space = global ? "global memory" : "shared memory";
  if (recs.empty()) {
    f.title = fmt::format("{} race on {} at this {} (no record kept: the channel was full)", hazard, space, f.access);
    return f;
  }
  // The record to describe: the most convincing pair kept — one whose partner site is known (on concurrent
  // blocks a partner's site can be unknown, its thread never is), then one whose two threads are in different
  // warps (a same-warp pair can look like lockstep to a reader, though nothing orders it); the first of those.
  int warp = b.dialect == "cuda" ? 32 : 64;  // HIP and MACA sources are written for wave 64
  auto warpOf = [&](const ThreadRef& t) {
    int64_t linear = t.thread[0] + b.block[0] * (t.thread[1] + b.block[1] * t.thread[2]);
    return linear / warp;
  };
  auto score = [&](const td_record* x) {
    const td_race_payload p = payloadOf<td_race_payload>(*x);
    ThreadRef me = recordThread(*x), partner = partnerOf(*x, b);
    bool otherWarp = !std::equal(me.block, me.block + 3, partner.block) || warpOf(me) != warpOf(partner);
    return (p.partner_site < sites.sites.size() ? 2 : 0) + (otherWarp ? 1 : 0);
  };
  const td_record* pick = recs.front();
  for (const td_record* x : recs)
    if (score(x) > score(pick)) pick = x;
  const td_record& r = *pick;
  f.pairRank = score(pick);
  // The thread the title names leads the finding's threads too ("by thread ..." beneath it).
  ThreadRef named = recordThread(r);
  auto at = std::find_if(f.threads.begin(), f.threads.end(), [&](const ThreadRef& t) {
    return std::equal(t.thread, t.thread + 3, named.thread) && std::equal(t.block, t.block + 3, named.block);
  });
  if (at != f.threads.end()) std::rotate(f.threads.begin(), at, at + 1);
  else f.threads.insert(f.threads.begin(), named);  // kept past the first threads (a pair across warps)
  const td_race_payload p = payloadOf<td_race_payload>(r);
  std::string where = place(p.offset);
  uint32_t partnerSite = p.partner_site;
  const Site* other = partnerSite < sites.sites.size() ? &sites.sites[partnerSite] : nullptr;
  ThreadRef me = recordThread(r), partner = partnerOf(r, b);
  // Tags keep the block id modulo 4096 (race_runtime.cu): past that the partner's block is
  // known only up to it.
  uint64_t blocks = static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2]);
  uint64_t myLinear = me.block[0] + b.grid[0] * (me.block[1] + b.grid[1] * me.block[2]);
  bool otherBlock = global && (myLinear % 4096 != p.partner_block || !std::equal(me.block, me.block + 3, partner.block));
  std::string partnerText = blocks <= 4096 || !otherBlock
                                ? threadText(partner)
                                : fmt::format("thread ({},{},{}) of a block whose linear id is {} modulo 4096",
                                              partner.thread[0], partner.thread[1], partner.thread[2], p.partner_block);
  f.title = fmt::format("{} race on {}: {} by {} {} the {} by {}", hazard, where, f.access, threadText(me),
                        otherBlock ? "unordered with" : "with no barrier since", other ? accessWord(other->kind) : "access",
                        partnerText);
  if (other) {
    f.notes.push_back(fmt::format("the earlier {}: {}{}", accessWord(other->kind), other->loc.str(),
                                  other->loc.function.empty() ? "" : " in " + other->loc.function));
    f.partner = other->loc;
  }
  if (same) {
    f.notes.push_back(fmt::format("both stored the same bytes (a {} pair): whichever runs first, every thread reads the "
                                  "same value, so this is not reported as a race unless --strict-races",
                                  hazards[hazardOf]));
    return f;
  }
  auto landing = [](const Site* x) { return x && x->loc.function == kAsyncCopyLanding; };
  if (landing(&s) || landing(other))
    f.notes.push_back("the write is an asynchronous copy (cp.async, MACA's memcpy_async) landing where its thread waits "
                      "for it (cp.async.wait_group, barrier_arrive_and_wait): until then it is in flight. The other "
                      "access is not ordered after that wait: wait for the copy before the barrier that orders them");
  else if (otherBlock)
    f.notes.push_back("threads of different blocks are not ordered within a launch: give each block its own elements, "
                      "use atomics for both accesses, or split the work into two launches");
  else if (global && (s.kind == SiteKind::Atomic || (other && other->kind == SiteKind::Atomic)))
    f.notes.push_back("an atomic update does not order a plain access of the same element: make both atomic, or put a "
                      "__syncthreads() between them");
  else
    f.notes.push_back("a __syncthreads() (or a barrier both threads take part in) between the two orders them");
  return f;
}

}  // namespace td
