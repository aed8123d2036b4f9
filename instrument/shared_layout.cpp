#include "instrument/shared_layout.h"

namespace td {

SharedLayout layOutShared(const SiteTable& table) {
  SharedLayout l;
  uint64_t end = 0;
  for (const SharedObject& o : table.shared) {
    if (o.dynamic) {
      l.offsets.push_back(0);
      continue;
    }
    uint64_t a = o.align ? o.align : 1;
    end = (end + a - 1) / a * a;
    l.offsets.push_back(end);
    end += o.bytes;
  }
  l.staticBytes = end;
  l.dynamicOffset = (end + 15) / 16 * 16;
  for (size_t i = 0; i < table.shared.size(); ++i)
    if (table.shared[i].dynamic) l.offsets[i] = l.dynamicOffset;
  return l;
}

}  // namespace td
