#include "checks/bounds/bounds_findings.h"

#include <algorithm>
#include <fmt/format.h>

#include "checks/bounds/bounds_abi.h"
#include "model/site_table.h"
#include "model/rules.h"

namespace td {

namespace {

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t;
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t;
}

void describeAccess(Finding& f, const td_record& record, const Site& s, const SiteTable& sites, const Bundle& b) {
  const td_access_payload r = payloadOf<td_access_payload>(record);
  f.loc = s.loc;
  f.access = accessName(s.kind);
  f.width = s.size;
  f.byteOffset = r.offset;
  std::string what = s.size ? fmt::format("{} of {} byte{}", f.access, s.size, s.size == 1 ? "" : "s") : f.access;
  if (s.space == Space::Global && s.object >= 0 && static_cast<size_t>(s.object) < b.args.size()) {
    const ArgSpec& a = b.args[s.object];
    f.buffer = a.name;
    f.element = elementOfByte(a.type, r.offset);
    f.coords = unravel(f.element, a.shape);
    std::string where = coordText(a.name, f.coords);
    int64_t past = r.offset + static_cast<int64_t>(s.size) - static_cast<int64_t>(a.byteSize());
    std::string rel = r.offset < 0 ? fmt::format("{} bytes before the start", -r.offset)
                                   : fmt::format("{} bytes past the end", std::max<int64_t>(past, 0));
    if (f.kind == rule::MisalignedAccess) {
      f.title = fmt::format("misaligned {} at {} (byte offset {}): address 0x{:x} is not a multiple of {}, the alignment "
                            "the access needs", what, where, r.offset, r.addr, s.align);
    } else {
      f.title = fmt::format("{} at {}, element {}, {} of '{}' ({}[{}], {} elements{})", what, where, f.element, rel,
                            a.name, elemTypeName(a.type), shapeText(a.shape), a.elementCount(),
                            a.storageElements ? " of a strided view's storage" : "");
    }
  } else if (s.space == Space::Shared) {
    if (s.object >= 0) {
      const SharedObject& o = sites.shared[s.object];
      f.buffer = o.name;
      int64_t es = o.elemSize;
      f.element = r.offset >= 0 ? r.offset / es : -((-r.offset + es - 1) / es);
      std::vector<int64_t> shape(o.dims.begin(), o.dims.end());
      if (shape.empty()) shape.push_back(0);
      f.coords = o.dims.empty() ? std::vector<int64_t>{f.element} : unravel(f.element, shape);
      std::string size = o.dynamic ? "the dynamic shared array, sized by launch.shared"
                                   : fmt::format("{} bytes, [{}]", o.bytes,
                                                 shapeText(std::vector<int64_t>(o.dims.begin(), o.dims.end())));
      if (f.kind == rule::MisalignedAccess)
        f.title = fmt::format("misaligned {} at __shared__ {} (byte offset {}): not a multiple of {}, the alignment the "
                              "access needs", what, coordText(o.name, f.coords), r.offset, s.align);
      else
        f.title = fmt::format("{} at __shared__ {}, byte offset {}, outside '{}' ({})", what, coordText(o.name, f.coords),
                              r.offset, o.name, size);
    } else {
      f.buffer = "shared window";
      f.title = fmt::format("{} at byte {} of the block's shared memory, beyond its end", what, r.offset);
    }
  } else {
    f.title = fmt::format("{} at address 0x{:x}", what, r.addr);
  }
}

// For a site counted but with no record kept: what is known without the access's offset and thread.
void describeUnrecorded(Finding& f, const Site& s, const SiteTable& sites, const Bundle& b) {
  f.loc = s.loc;
  f.access = accessName(s.kind);
  f.width = s.size;
  if (s.space == Space::Global && s.object >= 0 && static_cast<size_t>(s.object) < b.args.size())
    f.buffer = b.args[s.object].name;
  else if (s.space == Space::Shared && s.object >= 0)
    f.buffer = sites.shared[s.object].name;
  f.title = fmt::format("{} of {} bytes {} '{}' (no record of it was kept: the channel was full; raise "
                        "--channel-capacity)", f.access, s.size,
                        f.kind == rule::MisalignedAccess ? "misaligned, through" : "out of bounds of",
                        f.buffer.empty() ? "shared memory" : f.buffer);
}

// The record a bounds finding describes: the access nearest its object (the first element past the end,
// the last before the start), so the report does not depend on which thread the executor ran first.
const td_record& nearestRecord(const std::vector<const td_record*>& recs) {
  const td_record* best = recs.front();
  auto offset = [](const td_record* r) { return payloadOf<td_access_payload>(*r).offset; };
  auto distance = [&](const td_record* r) {
    return offset(r) < 0 ? static_cast<uint64_t>(-(offset(r) + 1)) : static_cast<uint64_t>(offset(r));
  };
  for (const td_record* r : recs)
    if ((offset(r) >= 0) > (offset(best) >= 0) || ((offset(r) >= 0) == (offset(best) >= 0) && distance(r) < distance(best)))
      best = r;
  return *best;
}

}  // namespace

Finding boundsFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b) {
  Finding f;
  f.kind = g.kind == TD_KIND_GLOBAL_OOB   ? rule::GlobalOutOfBounds
           : g.kind == TD_KIND_SHARED_OOB ? rule::SharedOutOfBounds
                                          : rule::MisalignedAccess;
  f.count = g.hits;
  if (g.records.empty()) describeUnrecorded(f, sites.sites[g.site], sites, b);
  else describeAccess(f, nearestRecord(g.records), sites.sites[g.site], sites, b);
  f.threads = g.threads;
  f.notes.push_back(f.access == "read" ? "the read was skipped and returned 0" : "the access was skipped");
  return f;
}

}  // namespace td
