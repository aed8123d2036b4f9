#include "driver/block_selection.h"

#include <algorithm>
#include <fmt/format.h>
#include <random>
#include <set>
#include <sstream>

#include "frontend/input_error.h"
#include "frontend/text_bounds.h"

namespace td {

namespace {
constexpr uint64_t kMaxSampledBoundary = 1u << 22;
}  // namespace

BlockSelection selectBlocks(const std::string& spec, const std::array<int64_t, 3>& grid, uint64_t seed) {
  BlockSelection s;
  uint64_t total = static_cast<uint64_t>(grid[0] * grid[1] * grid[2]);
  auto linear = [&](int64_t x, int64_t y, int64_t z) { return static_cast<uint64_t>((z * grid[1] + y) * grid[0] + x); };
  if (spec.empty() || spec == "all") {
    s.description = "all";
    return s;
  }
  std::set<uint64_t> chosen;
  if (spec.rfind("sample:", 0) == 0) {
    std::string count = spec.substr(7);
    if (!isDecimal(count, 12))
      throw InputError("--blocks", 0, fmt::format("'{}': sample:N takes a number of blocks (at most 12 digits)",
                                                  quotable(spec)));
    uint64_t n = std::stoull(count);
    // The boundary (first and last block along each dimension over 1), counted before it is listed: a
    // huge grid's boundary is rows of blocks, not a walk over every block.
    auto inner = [](int64_t d, bool edged) { return static_cast<uint64_t>(edged ? std::max<int64_t>(d - 2, 0) : d); };
    uint64_t boundaryCount = total - inner(grid[0], true) * inner(grid[1], grid[1] > 1) * inner(grid[2], grid[2] > 1);
    if (boundaryCount > kMaxSampledBoundary)
      throw InputError("--blocks", 0, fmt::format("'{}': the grid's boundary alone is {} blocks (more than {}); list "
                                                  "the blocks to run instead", spec, boundaryCount, kMaxSampledBoundary));
    for (int64_t z = 0; z < grid[2]; ++z)
      for (int64_t y = 0; y < grid[1]; ++y) {
        bool edgeRow = (grid[1] > 1 && (y == 0 || y == grid[1] - 1)) || (grid[2] > 1 && (z == 0 || z == grid[2] - 1));
        if (edgeRow) {
          for (int64_t x = 0; x < grid[0]; ++x) chosen.insert(linear(x, y, z));
        } else {
          chosen.insert(linear(0, y, z));
          chosen.insert(linear(grid[0] - 1, y, z));
        }
      }
    size_t boundary = chosen.size();
    std::mt19937_64 rng(seed ^ 0xb10c5ull);
    std::uniform_int_distribution<uint64_t> pick(0, total - 1);
    uint64_t wanted = std::min<uint64_t>(total, boundary + std::min<uint64_t>(n, total));
    for (uint64_t tries = 0; chosen.size() < wanted && tries < 100 * (wanted + 1); ++tries)
      chosen.insert(pick(rng));
    s.description = fmt::format("sample: {} boundary + {} random of {} (seed {})", boundary, chosen.size() - boundary,
                                total, seed);
  } else {
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ',')) {
      int64_t c[3] = {0, 0, 0};
      int n = 0;
      std::stringstream is(item);
      std::string part;
      while (std::getline(is, part, '.') && n < 3) {
        try {
          c[n++] = std::stoll(part);
        } catch (...) {
          n = -1;
          break;
        }
      }
      bool ok = n == 1 ? c[0] >= 0 && static_cast<uint64_t>(c[0]) < total
                       : n >= 2 && c[0] >= 0 && c[0] < grid[0] && c[1] >= 0 && c[1] < grid[1] && c[2] >= 0 && c[2] < grid[2];
      if (!ok)
        throw InputError("--blocks", 0, fmt::format("'{}' is not a block of the grid ({}x{}x{}); give linear indices "
                                                    "or x.y.z, or all, or sample:N", item, grid[0], grid[1], grid[2]));
      chosen.insert(n == 1 ? static_cast<uint64_t>(c[0]) : linear(c[0], c[1], c[2]));
    }
    s.description = fmt::format("list of {}", chosen.size());
  }
  if (chosen.size() == total) {
    s.description = "all";
    return s;
  }
  s.all = false;
  s.blocks.assign(chosen.begin(), chosen.end());
  return s;
}

}  // namespace td
