#include "sanitizer/finding.h"

#include <fmt/format.h>

namespace td {

int Report::exitCode() const {
  bool any = false;
  for (const Finding& f : findings) {
    if (f.fatal) return 3;
    any = true;
  }
  return any ? 1 : 0;
}

std::string coordText(const std::string& name, const std::vector<int64_t>& coords) {
  std::string s = name + "[";
  for (size_t i = 0; i < coords.size(); ++i) s += (i ? ", " : "") + std::to_string(coords[i]);
  return s + "]";
}

std::string threadText(const ThreadRef& t) {
  return fmt::format("thread ({},{},{}) of block ({},{},{})", t.thread[0], t.thread[1], t.thread[2], t.block[0],
                     t.block[1], t.block[2]);
}

}  // namespace td
