#include "diff/heat_map.h"

#include <algorithm>
#include <cmath>

namespace td {

HeatCells heatCells(const OutputComparison& c, const TileMap& tiles, double rtol, double atol, int64_t maxCells) {
  HeatCells h;
  h.rowsPerCell = (tiles.rows + maxCells - 1) / maxCells;
  h.colsPerCell = (tiles.cols + maxCells - 1) / maxCells;
  h.down = (tiles.rows + h.rowsPerCell - 1) / h.rowsPerCell;
  h.across = (tiles.cols + h.colsPerCell - 1) / h.colsPerCell;
  h.ratio.assign(static_cast<size_t>(h.down * h.across), 0.0);
  for (int64_t r = 0; r < tiles.rows; ++r)
    for (int64_t col = 0; col < tiles.cols; ++col) {
      size_t i = static_cast<size_t>(r * tiles.cols + col);
      if (i >= c.result.size() || i >= c.reference.size()) continue;
      double ratio = allowanceRatio(c.result[i], c.reference[i], rtol, atol);
      double& cell = h.ratio[static_cast<size_t>(r / h.rowsPerCell * h.across + col / h.colsPerCell)];
      cell = std::max(cell, ratio);
    }
  return h;
}

Rgb heatColour(double ratio) {
  if (std::isinf(ratio)) return {1, 0, 1};
  // Stops one decade apart from 1e-3 to 1e3 (dark blue, blue, cyan, green at the allowance, orange, red,
  // dark red): cool within the allowance, warm past it.
  static const Rgb stops[] = {{0.19, 0.07, 0.23}, {0.27, 0.38, 0.84}, {0.21, 0.67, 0.98}, {0.10, 0.89, 0.71},
                              {0.98, 0.73, 0.22}, {0.89, 0.27, 0.04}, {0.48, 0.02, 0.01}};
  double x = ratio <= 0 ? 0 : std::clamp(std::log10(ratio) + 3, 0.0, 6.0);
  int i = std::min(static_cast<int>(x), 5);
  double f = x - i;
  const Rgb &a = stops[i], &b = stops[i + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

}  // namespace td
