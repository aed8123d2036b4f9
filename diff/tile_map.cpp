#include "diff/tile_map.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace td {

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The tile extent `g` blocks cover `extent` elements with: kernels tile by multiples of 8 (16, 64, 96,
// 128), so the smallest such that g tiles cover the extent (a grid of cdiv(extent, T)), else that g whole
// tiles fit (a floor-divided grid, its remainder left as further tiles), else extent / g rounded up.
int64_t tileExtent(int64_t extent, int64_t g) {
  if (g <= 1) return extent;
  for (int64_t t = 8; t <= extent; t += 8)
    if (ceilDiv(extent, t) == g) return t;
  for (int64_t t = 8; t <= extent; t += 8)
    if (extent / t == g) return t;
  return ceilDiv(extent, g);
}

}  // namespace

TileMap tileMap(const OutputComparison& c, const std::array<int64_t, 3>& grid, double rtol, double atol) {
  TileMap m;
  m.cols = c.shape.empty() ? 1 : std::max<int64_t>(c.shape.back(), 1);
  m.rows = std::max<int64_t>(static_cast<int64_t>(c.result.size()) / m.cols, 1);
  int64_t gx = std::max<int64_t>(grid[0], 1), gy = std::max<int64_t>(grid[1], 1);
  int64_t down = 1, across = 1;
  if (gx > 1 && gy > 1) {
    down = gy, across = gx;
    m.layout = "grid.y over rows, grid.x over columns";
  } else if (int64_t g = std::max(gx, gy); g > 1) {
    const char* axis = gx > 1 ? "grid.x" : "grid.y";
    if (m.rows > 1 && m.rows % g == 0) down = g, m.layout = fmt::format("{} over rows", axis);
    else across = g, m.layout = fmt::format("{} over columns", axis);
  } else {
    m.layout = "one block: one tile";
  }
  m.tileRows = tileExtent(m.rows, std::min(down, m.rows));
  m.tileCols = tileExtent(m.cols, std::min(across, m.cols));
  m.tilesDown = ceilDiv(m.rows, m.tileRows);
  m.tilesAcross = ceilDiv(m.cols, m.tileCols);
  m.worst.assign(static_cast<size_t>(m.tilesDown * m.tilesAcross), 0.0);
  m.mismatched.assign(m.worst.size(), 0);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t col = 0; col < m.cols; ++col) {
      size_t i = static_cast<size_t>(r * m.cols + col);
      if (i >= c.result.size() || i >= c.reference.size()) continue;
      double ratio = allowanceRatio(c.result[i], c.reference[i], rtol, atol);
      size_t t = static_cast<size_t>(r / m.tileRows * m.tilesAcross + col / m.tileCols);
      m.worst[t] = std::max(m.worst[t], ratio);
      if (ratio > 1) ++m.mismatched[t];
    }
  return m;
}

char tileSymbol(double ratio) {
  if (ratio <= 0.01) return '.';
  if (ratio <= 0.1) return ':';
  if (ratio <= 1) return '-';
  if (ratio <= 10) return '+';
  if (ratio <= 100) return '*';
  if (ratio <= 1000) return '#';
  return '@';
}

std::string renderTileMap(const TileMap& m, int64_t maxDown, int64_t maxAcross) {
  int64_t mergeDown = ceilDiv(m.tilesDown, maxDown), mergeAcross = ceilDiv(m.tilesAcross, maxAcross);
  std::string out;
  for (int64_t r = 0; r < m.tilesDown; r += mergeDown) {
    out += "    ";
    for (int64_t c = 0; c < m.tilesAcross; c += mergeAcross) {
      double worst = 0;
      for (int64_t rr = r; rr < std::min(r + mergeDown, m.tilesDown); ++rr)
        for (int64_t cc = c; cc < std::min(c + mergeAcross, m.tilesAcross); ++cc)
          worst = std::max(worst, m.worst[static_cast<size_t>(rr * m.tilesAcross + cc)]);
      out += tileSymbol(worst);
    }
    out += '\n';
  }
  std::string merged = mergeDown > 1 || mergeAcross > 1
                           ? fmt::format("; each character {} x {} tiles", mergeDown, mergeAcross) : "";
  return fmt::format("    {} x {} tiles of {} x {} elements ({}{})\n", m.tilesDown, m.tilesAcross, m.tileRows,
                     m.tileCols, m.layout, merged) +
         out +
         "    worst error per tile against the rule's allowance: . <=1%  : <=10%  - within  + x10  * x100  # x1000  @ more\n";
}

}  // namespace td
