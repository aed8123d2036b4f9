// One dimension bisect-shape searches: `--axis NAME=LO:HI[:ALIGN]` (or `--align N` for all). The search probes only the
// axis's aligned values (multiples of the alignment inside [LO, HI]): tile sizes and problem sizes that
// a kernel is meant to take.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace td::bisect {

struct Axis {
  std::string name;
  int64_t lo = 0, hi = 0, align = 1;
  // The values probed: multiples of align in [lo, hi], ascending. Never empty (parseAxis refuses that).
  std::vector<int64_t> values() const;
  int64_t count() const;  // values().size() without building it
  int64_t valueAt(int64_t index) const;
};

// "M=64:4096" with the alignment ("M=64:4096:64" names its own); InputError (file "--axis") for a bad one: no '=', no ':', a bound that
// is not an integer, lo > hi, lo < 1, no aligned value inside, more than 2^20 aligned values.
Axis parseAxis(const std::string& text, int64_t align);

// A shape: one value per axis, in the axes' order.
using Shape = std::vector<int64_t>;
std::string shapeText(const std::vector<Axis>& axes, const Shape& shape);  // "M=128, N=64"

}  // namespace td::bisect
