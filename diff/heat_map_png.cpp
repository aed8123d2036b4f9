// Drawing with cairo (docs/dependencies.md); the static GPU build has none and refuses --images.
#include "diff/heat_map.h"

#include <algorithm>
#include <fmt/format.h>

#include "frontend/input_error.h"

#ifdef TD_HAVE_CAIRO
#include "sanitizer/png_output.h"
#endif

namespace td {

#ifdef TD_HAVE_CAIRO

void writeHeatMapPng(const std::string& path, const std::string& title, const HeatCells& cells, const TileMap& tiles) {
  const int cell = static_cast<int>(std::clamp<int64_t>(512 / std::max(cells.down, cells.across), 1, 32));
  const int margin = 48, bar = 18, barGap = 24, labels = 96;
  const int mapW = static_cast<int>(cells.across) * cell, mapH = static_cast<int>(cells.down) * cell;
  const int width = margin + mapW + barGap + bar + labels, height = margin + std::max(mapH, 240) + margin / 2;
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 13);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_move_to(cr, margin, 20);
  cairo_show_text(cr, title.c_str());
  cairo_set_font_size(cr, 11);
  cairo_move_to(cr, margin, 36);
  std::string sub = fmt::format("worst error / allowance per cell of {} x {} elements; white lines: {} x {} tiles", cells.rowsPerCell,
                                cells.colsPerCell, tiles.tileRows, tiles.tileCols);
  cairo_show_text(cr, sub.c_str());
  for (int64_t r = 0; r < cells.down; ++r)
    for (int64_t c = 0; c < cells.across; ++c) {
      Rgb colour = heatColour(cells.ratio[static_cast<size_t>(r * cells.across + c)]);
      cairo_set_source_rgb(cr, colour.r, colour.g, colour.b);
      cairo_rectangle(cr, margin + c * cell, margin + r * cell, cell, cell);
      cairo_fill(cr);
    }
  // tile borders, where a tile spans more than one cell
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_set_line_width(cr, 1);
  double perRow = static_cast<double>(cell) / cells.rowsPerCell, perCol = static_cast<double>(cell) / cells.colsPerCell;
  if (tiles.tileRows * perRow >= 3)
    for (int64_t t = 1; t < tiles.tilesDown; ++t) {
      cairo_move_to(cr, margin, margin + t * tiles.tileRows * perRow);
      cairo_line_to(cr, margin + mapW, margin + t * tiles.tileRows * perRow);
    }
  if (tiles.tileCols * perCol >= 3)
    for (int64_t t = 1; t < tiles.tilesAcross; ++t) {
      cairo_move_to(cr, margin + t * tiles.tileCols * perCol, margin);
      cairo_line_to(cr, margin + t * tiles.tileCols * perCol, margin + mapH);
    }
  cairo_stroke(cr);
  // the colour scale: 1e-3 at the bottom to 1e3 at the top
  const int barX = margin + mapW + barGap, barH = 240;
  for (int y = 0; y < barH; ++y) {
    Rgb colour = heatColour(std::pow(10.0, 3.0 - 6.0 * y / barH));
    cairo_set_source_rgb(cr, colour.r, colour.g, colour.b);
    cairo_rectangle(cr, barX, margin + y, bar, 1);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  const char* ticks[] = {"1e3", "1e2", "10", "1 (allowed)", "0.1", "0.01", "<=1e-3"};
  for (int t = 0; t <= 6; ++t) {
    cairo_move_to(cr, barX + bar + 4, margin + t * barH / 6.0 + 4);
    cairo_show_text(cr, ticks[t]);
  }
  finishPng(cr, surface, path, "heat map");
}

#else

void writeHeatMapPng(const std::string& path, const std::string&, const HeatCells&, const TileMap&) {
  throw InputError(path, 0, "this build of tile-doctor has no image support (cairo): --images needs the Debian build");
}

#endif

}  // namespace td
