#include "sanitizer/output_diff.h"
#include "model/rules.h"

#include <cstring>
#include <fmt/format.h>

namespace td {

std::optional<Finding> diffOutputs(const ArgValue& first, const ArgValue& later, const std::string& firstName,
                                   const std::string& laterName, const WorkDeadline& deadline) {
  const ArgSpec& spec = *first.spec;
  size_t size = elemSize(spec.type);
  uint64_t n = spec.elementCount(), differing = 0;
  int64_t firstAt = -1;
  const char* a = static_cast<const char*>(first.data);
  const char* b = static_cast<const char*>(later.data);
  std::vector<std::string> examples;
  deadline.inSlices(n, kElementsPerSlice, [&](uint64_t from, uint64_t to) {
  for (uint64_t i = from; i < to; ++i) {
    bool same = isPacked(spec.type) ? loadElemAt(spec.type, a, i) == loadElemAt(spec.type, b, i)
                                    : std::memcmp(a + i * size, b + i * size, size) == 0;  // bits: NaN == NaN
    if (same) continue;
    if (differing++ == 0) firstAt = static_cast<int64_t>(i);
    if (examples.size() < 3)
      examples.push_back(fmt::format("{} = {} ({}) vs {} ({})", coordText(spec.name, unravel(i, spec.shape)),
                                     loadElemAt(spec.type, a, i), firstName, loadElemAt(spec.type, b, i), laterName));
  }
  });
  if (differing == 0) return std::nullopt;
  Finding f;
  f.kind = rule::NondeterministicOutput;
  f.buffer = spec.name;
  f.element = firstAt;
  f.coords = unravel(firstAt, spec.shape);
  f.count = differing;
  f.title = fmt::format("{} of {} elements of '{}' differ between the {} and the {}, first at {}", differing, n,
                        spec.name, firstName, laterName, coordText(spec.name, f.coords));
  for (auto& e : examples) f.notes.push_back(e);
  f.notes.push_back("the same inputs gave different results: threads race, or a barrier is missing");
  return f;
}

}  // namespace td
