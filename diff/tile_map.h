// An output's errors gathered per tile of the kernel's launch, so that the shape of a difference shows:
// one bad tile, the edge tiles, a bad column of blocks. The grid's blocks are laid over the output's rows
// (every dimension but the last) and columns (the last): grid.y over rows and grid.x over columns when
// both are above one (as GEMMs and 2-D elementwise kernels index them); a single grid dimension over the
// rows when it divides them (a block per row or rows), else over the columns. A tile's extent is taken as
// the multiple of 8 the grid implies (tileExtent in tile_map.cpp), so a grid that misses the edge shows
// the edge as tiles of its own.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "diff/output_comparison.h"

namespace td {

struct TileMap {
  int64_t rows = 1, cols = 1;          // the output seen as a matrix
  int64_t tileRows = 1, tileCols = 1;  // elements per tile
  int64_t tilesDown = 1, tilesAcross = 1;
  std::string layout;                  // how the grid was laid over the output, in words
  std::vector<double> worst;           // per tile, row-major: max |a - e| / (atol + rtol |e|) (inf: NaN or inf)
  std::vector<uint64_t> mismatched;    // per tile: elements past that allowance
};

TileMap tileMap(const OutputComparison& c, const std::array<int64_t, 3>& grid, double rtol, double atol);

// A character per tile (merged to at most maxDown x maxAcross cells, each the worst of its tiles) and the
// legend: '.' within 1% of the allowance, ':' 10%, '-' within it, then '+' x10, '*' x100, '#' x1000, '@' more.
std::string renderTileMap(const TileMap& m, int64_t maxDown = 32, int64_t maxAcross = 64);
char tileSymbol(double ratio);

}  // namespace td
