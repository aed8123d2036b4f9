#include "sanitizer/wild_findings.h"

#include <fmt/format.h>

#include "frontend/elem_type.h"
#include "frontend/manifest.h"
#include "model/abi.h"
#include "model/site_table.h"
#include "model/rules.h"

namespace td {

namespace {

// "64 bytes past the end of 'out'", "8 bytes before the start of 'x'", "at byte 12 of 'x'".
std::string relativeTo(const std::string& name, int64_t offset, uint64_t size, uint64_t bytes) {
  if (offset < 0) return fmt::format("{} bytes before the start of {}", -offset, name);
  if (static_cast<uint64_t>(offset) >= bytes)  // counted to the access's end, as the bounds family counts
    return fmt::format("{} bytes past the end of {}", offset + size - bytes, name);
  if (static_cast<uint64_t>(offset) + size > bytes)
    return fmt::format("at byte {} of {}, running {} bytes past its end", offset, name, offset + size - bytes);
  return fmt::format("at byte {} of {}", offset, name);
}

// The record to describe: the access nearest its object, as the bounds family chooses, so the report does
// not depend on which thread ran first.
const td_record& nearest(const std::vector<const td_record*>& recs) {
  auto distance = [](const td_record* r) {
    int64_t o = payloadOf<td_wild_payload>(*r).offset;
    return o < 0 ? static_cast<uint64_t>(-(o + 1)) : static_cast<uint64_t>(o);
  };
  const td_record* best = recs.front();
  for (const td_record* r : recs)
    if (distance(r) < distance(best)) best = r;
  return *best;
}

}  // namespace

Finding wildAccessFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b) {
  const Site& s = sites.sites[g.site];
  Finding f;
  f.kind = rule::WildAccess;
  f.loc = s.loc;
  f.count = g.hits;
  f.threads = g.threads;
  bool call = s.what == kIndirectCallSite;
  f.access = call ? "" : accessName(s.kind);
  f.width = s.size;
  std::string what = call ? s.what : s.size ? fmt::format("{} of {} byte{}", f.access, s.size, s.size == 1 ? "" : "s") : f.access;
  if (g.records.empty()) {
    f.title = fmt::format("{} outside all of the kernel's memory (no record of it was kept: the channel was full; raise "
                          "--channel-capacity)", what);
  } else {
    td_wild_payload w = payloadOf<td_wild_payload>(nearest(g.records));
    f.byteOffset = w.offset;
    if (call) {
      f.title = fmt::format("{} to 0x{:x}, which is none of the kernel's functions", what, w.addr);
    } else if (w.object == TD_WILD_OWN_OBJECT) {
      f.title = fmt::format("{} at 0x{:x}, {} ({} bytes): outside it", what, w.addr,
                            relativeTo(s.what, w.offset, w.size, s.objectBytes), s.objectBytes);
    } else if (w.addr < 4096) {
      f.title = fmt::format("{} through a null pointer (address 0x{:x})", what, w.addr);
    } else if (w.object >= 0 && static_cast<size_t>(w.object) < b.args.size() &&
               (w.offset < 0 ? -w.offset : w.offset) <= (int64_t(1) << 30) + int64_t(b.args[w.object].byteSize())) {
      const ArgSpec& a = b.args[w.object];
      f.buffer = a.name;
      f.title = fmt::format("{} at 0x{:x}, {} (the nearest buffer), outside every buffer, the shared memory and the "
                            "thread's stack", what, w.addr,
                            relativeTo("'" + a.name + "'", w.offset, w.size, a.byteSize()));
    } else {
      f.title = fmt::format("{} at 0x{:x}, outside every buffer (none within 1 GiB of it), the shared memory and the "
                            "thread's stack", what, w.addr);
    }
  }
  if (s.space == Space::Global && s.object >= 0 && static_cast<size_t>(s.object) < b.args.size())
    f.notes.push_back(fmt::format("the address was computed from '{}'", b.args[s.object].name));
  f.notes.push_back(call ? "the call was skipped (its result is 0)"
                         : f.access == "read" ? "the read was skipped and returned 0" : "the access was skipped");
  return f;
}

}  // namespace td
