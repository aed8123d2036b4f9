// The picture behind `diff --images`: an output's elementwise errors as a multiple of the rule's allowance
// (atol + rtol |reference|), pooled by maximum into at most maxCells x maxCells cells so a large output
// still fits a page, with the launch tiles' borders on top. The numbers are computed here, apart from the
// drawing (heat_map_png), so that what an image shows can be checked.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "diff/output_comparison.h"
#include "diff/tile_map.h"

namespace td {

struct HeatCells {
  int64_t down = 0, across = 0;          // cells
  int64_t rowsPerCell = 1, colsPerCell = 1;
  std::vector<double> ratio;             // per cell, row-major: the worst element's error / allowance (inf: non-finite)
};

HeatCells heatCells(const OutputComparison& c, const TileMap& tiles, double rtol, double atol, int64_t maxCells = 256);

// The colour of a ratio on the image's logarithmic scale, 1e-3 (and below) to 1e3 (and above); a
// non-finite mismatch is magenta. Components in [0, 1].
struct Rgb {
  double r, g, b;
};
Rgb heatColour(double ratio);

// Writes `path` (PNG): the title, the cells, the tile borders and the colour scale. InputError naming the
// file when it cannot be written, or when this build has no cairo (the static GPU build).
void writeHeatMapPng(const std::string& path, const std::string& title, const HeatCells& cells, const TileMap& tiles);

}  // namespace td
