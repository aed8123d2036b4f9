#include "checks/places.h"

#include <fmt/format.h>

#include "frontend/elem_type.h"

namespace td {

std::string globalPlace(const Site& s, int64_t offset, const Bundle& b, Finding& f) {
  f.byteOffset = offset;
  if (s.object < 0 || static_cast<size_t>(s.object) >= b.args.size()) {
    f.buffer = "global buffer";
    return fmt::format("byte {} of a buffer argument", offset);
  }
  const ArgSpec& a = b.args[s.object];
  f.buffer = a.name;
  f.element = elementOfByte(a.type, offset);
  f.coords = unravel(f.element, a.shape);
  return fmt::format("{} (byte offset {})", coordText(a.name, f.coords), offset);
}

std::string sharedPlace(const Site& s, int64_t off, const SiteTable& sites, Finding& f) {
  if (s.object < 0 || static_cast<size_t>(s.object) >= sites.shared.size()) {
    f.buffer = "shared window";
    f.byteOffset = off;
    return fmt::format("byte {} of the block's shared memory", off);
  }
  const SharedObject& o = sites.shared[s.object];
  f.buffer = o.name;
  f.byteOffset = off;
  f.element = off / static_cast<int64_t>(o.elemSize);
  std::vector<int64_t> shape(o.dims.begin(), o.dims.end());
  f.coords = shape.empty() ? std::vector<int64_t>{f.element} : unravel(f.element, shape);
  return fmt::format("__shared__ {} (byte offset {})", coordText(o.name, f.coords), off);
}

}  // namespace td
