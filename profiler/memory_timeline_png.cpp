// Drawing with cairo (docs/dependencies.md); the static GPU build has none and refuses --timeline-png.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

#include "frontend/input_error.h"
#include "profiler/memory_columns.h"

#ifdef TD_HAVE_CAIRO
#include "sanitizer/png_output.h"
#endif

namespace td {

#ifdef TD_HAVE_CAIRO

namespace {

// In the unit `scale` picks (so an axis's ticks share one), without exponents: "1010 KiB", "2.63 MiB".
std::string bytesText(double bytes, double scale = -1) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  for (double s = scale < 0 ? bytes : scale; s >= 1024 && u < 4; s /= 1024) ++u;
  double v = bytes / std::pow(1024.0, u);
  return fmt::format(u == 0 || v >= 100 ? "{:.0f} {}" : v >= 10 ? "{:.1f} {}" : "{:.2f} {}", v, units[u]);
}

void setColour(cairo_t* cr, Rgb8 c) { cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

void text(cairo_t* cr, double x, double y, const std::string& s) {
  cairo_move_to(cr, x, y);
  cairo_show_text(cr, s.c_str());
}

}  // namespace

void writeMemoryTimelinePng(const std::string& path, const std::string& title, const MemoryColumns& m) {
  const int left = 80, top = 56, plotW = static_cast<int>(std::max<size_t>(m.columns.size(), 1)), plotH = 360;
  const int colW = std::max(1, 900 / plotW), width = left + plotW * colW + 24;
  // the legend: the tensors alive at the peak, the largest first, one line each
  std::vector<int64_t> legend;
  int64_t most = -1;
  for (const MemoryColumns::Column& c : m.columns)
    if (c.bytes > most) most = c.bytes, legend = c.stack;
  std::stable_sort(legend.begin(), legend.end(), [&](int64_t a, int64_t b) { return m.tensor(a).bytes > m.tensor(b).bytes; });
  legend.resize(std::min<size_t>(legend.size(), 8));
  const int height = top + plotH + 48 + 16 * static_cast<int>(legend.size() + 1);
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_font_size(cr, 13);
  text(cr, left, 20, title);
  cairo_set_font_size(cr, 11);
  text(cr, left, 36, fmt::format("tensors alive, stacked in the order they were made; {} events in {} columns (each "
                                 "at its highest); grey lines: TileLang launches",
                                 m.events, m.columns.size()));
  double top_bytes = std::max<double>(1, static_cast<double>(m.peakBytes)) * 1.05;
  auto y = [&](double bytes) { return top + plotH - bytes / top_bytes * plotH; };
  for (size_t c = 0; c < m.columns.size(); ++c) {
    double base = 0, x = left + static_cast<double>(c) * colW;
    for (int64_t id : m.columns[c].stack) {
      const MemoryColumns::Tensor& t = m.tensor(id);
      setColour(cr, lineColour(t.line));
      cairo_rectangle(cr, x, y(base + static_cast<double>(t.bytes)), colW, y(base) - y(base + static_cast<double>(t.bytes)));
      cairo_fill(cr);
      base += static_cast<double>(t.bytes);
    }
  }
  // axes and byte ticks
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 1);
  cairo_move_to(cr, left - 0.5, top);
  cairo_line_to(cr, left - 0.5, top + plotH + 0.5);
  cairo_line_to(cr, left + plotW * colW, top + plotH + 0.5);
  cairo_stroke(cr);
  for (int t = 0; t <= 4; ++t) {
    double bytes = top_bytes * t / 4;
    text(cr, 4, y(bytes) + 4, bytesText(bytes, top_bytes));
  }
  text(cr, left, top + plotH + 16, "first event");
  text(cr, left + plotW * colW - 60, top + plotH + 16, "last event");
  // launches
  cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
  for (const MemoryColumns::Launch& l : m.launches) {
    double x = left + (static_cast<double>(l.event) * plotW / std::max<int64_t>(1, m.events)) * colW + 0.5;
    cairo_move_to(cr, x, top);
    cairo_line_to(cr, x, top + plotH);
    cairo_stroke(cr);
    text(cr, x + 2, top - 4, fmt::format("L{}", l.number));
  }
  // the peak
  if (m.peakEvent >= 0) {
    double x = left + (static_cast<double>(m.peakEvent) * plotW / std::max<int64_t>(1, m.events)) * colW;
    cairo_set_source_rgb(cr, 0.8, 0, 0);
    cairo_move_to(cr, x - 5, y(static_cast<double>(m.peakBytes)) - 10);
    cairo_line_to(cr, x + 5, y(static_cast<double>(m.peakBytes)) - 10);
    cairo_line_to(cr, x, y(static_cast<double>(m.peakBytes)) - 2);
    cairo_close_path(cr);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  int ly = top + plotH + 36;
  text(cr, left, ly, fmt::format("peak {} ({} bytes); alive at the peak, the largest first:", bytesText(static_cast<double>(m.peakBytes)),
                                 m.peakBytes));
  for (int64_t id : legend) {
    ly += 16;
    const MemoryColumns::Tensor& t = m.tensor(id);
    setColour(cr, lineColour(t.line));
    cairo_rectangle(cr, left, ly - 9, 10, 10);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text(cr, left + 16, ly, fmt::format("{} made at {}", bytesText(static_cast<double>(t.bytes)), t.where));
  }
  finishPng(cr, surface, path, "memory timeline");
}

#else

void writeMemoryTimelinePng(const std::string& path, const std::string&, const MemoryColumns&) {
  throw InputError(path, 0, "this build of tile-doctor has no image support (cairo): --timeline-png needs the Debian build");
}

#endif

}  // namespace td
