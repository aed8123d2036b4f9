#include "sanitizer/race_findings.h"

#include <fmt/format.h>

#include "instrument/shared_layout.h"
#include "sanitizer/records.h"

namespace td {

bool isRaceKind(unsigned kind) { return kind >= TD_KIND_SHARED_RAW && kind <= TD_KIND_SHARED_UNINIT; }

namespace {

// The partner thread of a race record: its linear id in the same block.
ThreadRef partnerOf(const td_record& r, const Bundle& b) { return threadOfLinearId(recordThread(r), r.addr & 0xffffffffu, b.block); }

// "__shared__ tile[1] (byte 4 of 'tile')", from a window offset.
std::string sharedPlace(const Site& s, int64_t windowOffset, const SiteTable& sites, Finding& f) {
  SharedLayout layout = layOutShared(sites);
  if (s.object < 0 || static_cast<size_t>(s.object) >= sites.shared.size()) {
    f.buffer = "shared window";
    f.byteOffset = windowOffset;
    return fmt::format("byte {} of the block's shared memory", windowOffset);
  }
  const SharedObject& o = sites.shared[s.object];
  int64_t off = windowOffset - static_cast<int64_t>(o.dynamic ? layout.dynamicOffset : layout.offsets[s.object]);
  f.buffer = o.name;
  f.byteOffset = off;
  f.element = off / static_cast<int64_t>(o.elemSize);
  std::vector<int64_t> shape(o.dims.begin(), o.dims.end());
  f.coords = shape.empty() ? std::vector<int64_t>{f.element} : unravel(f.element, shape);
  return fmt::format("__shared__ {} (byte offset {})", coordText(o.name, f.coords), off);
}

const char* accessWord(SiteKind k) { return k == SiteKind::Store ? "write" : k == SiteKind::Atomic ? "atomic" : "read"; }

}  // namespace

Finding raceFinding(unsigned kind, unsigned site, const std::vector<const td_record*>& recs,
                    const std::vector<ThreadRef>& threads, uint64_t count, const SiteTable& sites, const Bundle& b) {
  const Site& s = sites.sites[site];
  Finding f;
  f.loc = s.loc;
  f.count = count;
  f.access = accessWord(s.kind);
  f.width = s.size;
  f.threads = threads;
  if (kind == TD_KIND_SHARED_UNINIT) {
    f.kind = "uninitialized-shared-read";
    std::string place = recs.empty() ? "shared memory" : sharedPlace(s, recs.front()->offset, sites, f);
    f.title = fmt::format("read of {} before any thread of the block wrote it", place);
    f.notes.push_back("shared memory starts undefined in every block; the value read is whatever was there (when "
                      "another thread writes it later with no barrier between, this is a race seen from the read)");
    return f;
  }
  f.kind = kind == TD_KIND_SHARED_RAW ? "shared-race-raw" : kind == TD_KIND_SHARED_WAR ? "shared-race-war" : "shared-race-waw";
  const char* hazard = kind == TD_KIND_SHARED_RAW ? "read-after-write" : kind == TD_KIND_SHARED_WAR ? "write-after-read"
                                                                                                  : "write-after-write";
  if (recs.empty()) {
    f.title = fmt::format("{} race on shared memory at this {} (no record kept: the channel was full)", hazard, f.access);
    return f;
  }
  const td_record& r = *recs.front();
  std::string place = sharedPlace(s, r.offset, sites, f);
  uint32_t partnerSite = static_cast<uint32_t>(r.addr >> 32);
  const Site* other = partnerSite < sites.sites.size() ? &sites.sites[partnerSite] : nullptr;
  ThreadRef partner = partnerOf(r, b);
  f.title = fmt::format("{} race on {}: {} by {} with no barrier since the {} by {}", hazard, place, f.access,
                        threadText(recordThread(r)), other ? accessWord(other->kind) : "access", threadText(partner));
  if (other) {
    f.notes.push_back(fmt::format("the earlier {}: {}{}", accessWord(other->kind), other->loc.str(),
                                  other->loc.function.empty() ? "" : " in " + other->loc.function));
    f.partner = other->loc;
  }
  f.notes.push_back("a __syncthreads() (or a barrier both threads take part in) between the two orders them");
  return f;
}

}  // namespace td
