// Ends a cairo drawing as a PNG file: the drawing's images (diff's heat maps, profile's memory timeline) are
// written the same way, and a file that cannot be written is bad input naming it. Only for the builds with
// cairo (TD_HAVE_CAIRO); the static GPU build has none.
#pragma once
#include <cairo.h>
#include <fmt/format.h>
#include <string>

#include "frontend/input_error.h"

namespace td {

inline void finishPng(cairo_t* cr, cairo_surface_t* surface, const std::string& path, const char* what) {
  cairo_destroy(cr);
  cairo_surface_flush(surface);
  cairo_status_t status = cairo_surface_write_to_png(surface, path.c_str());
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS)
    throw InputError(path, 0, fmt::format("cannot write the {}: {}", what, cairo_status_to_string(status)));
}

}  // namespace td
