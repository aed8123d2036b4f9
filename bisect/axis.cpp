#include "bisect/axis.h"

#include <charconv>
#include <fmt/format.h>

#include "frontend/input_error.h"

namespace td::bisect {

namespace {

int64_t parseBound(const std::string& text, const std::string& whole) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw InputError("--axis", 0, fmt::format("'{}': '{}' is not an integer", whole, text));
  return v;
}

int64_t firstAligned(int64_t lo, int64_t align) { return (lo + align - 1) / align * align; }

}  // namespace

int64_t Axis::count() const { return (hi / align) - (firstAligned(lo, align) / align) + 1; }

int64_t Axis::valueAt(int64_t index) const { return firstAligned(lo, align) + index * align; }

std::vector<int64_t> Axis::values() const {
  std::vector<int64_t> v;
  for (int64_t i = 0, n = count(); i < n; ++i) v.push_back(valueAt(i));
  return v;
}

Axis parseAxis(const std::string& text, int64_t align) {
  size_t eq = text.find('='), colon = text.find(':', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || eq == 0 || colon == std::string::npos)
    throw InputError("--axis", 0, fmt::format("'{}' is not NAME=LO:HI[:ALIGN] (for example M=64:4096)", text));
  Axis a;
  a.name = text.substr(0, eq);
  a.lo = parseBound(text.substr(eq + 1, colon - eq - 1), text);
  size_t third = text.find(':', colon + 1);  // NAME=LO:HI:ALIGN: this axis's own alignment
  a.hi = parseBound(text.substr(colon + 1, third == std::string::npos ? std::string::npos : third - colon - 1), text);
  if (third != std::string::npos) align = parseBound(text.substr(third + 1), text);
  if (align < 1) throw InputError("--axis", 0, fmt::format("'{}': the alignment must be at least 1", text));
  a.align = align;
  if (a.lo < 1) throw InputError("--axis", 0, fmt::format("'{}': the lowest value must be at least 1", text));
  if (a.lo > a.hi) throw InputError("--axis", 0, fmt::format("'{}': {} is above {}", text, a.lo, a.hi));
  if (a.hi > (int64_t(1) << 62)) throw InputError("--axis", 0, fmt::format("'{}': {} is too large", text, a.hi));
  if (firstAligned(a.lo, align) > a.hi)
    throw InputError("--axis", 0, fmt::format("'{}' holds no multiple of --align {}", text, align));
  if (a.count() > (int64_t(1) << 20))
    throw InputError("--axis", 0, fmt::format("'{}' holds {} values of --align {}: raise --align (at most 2^20 values)",
                                              text, a.count(), align));
  return a;
}

std::string shapeText(const std::vector<Axis>& axes, const Shape& shape) {
  std::string s;
  for (size_t i = 0; i < axes.size() && i < shape.size(); ++i)
    s += fmt::format("{}{}={}", i ? ", " : "", axes[i].name, shape[i]);
  return s;
}

}  // namespace td::bisect
