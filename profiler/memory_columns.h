// The picture behind `profile kernel.py --timeline-png`: the script's memory timeline (memory_timeline.py's
// events) pooled into at most `columns` columns, each showing the tensors alive at its highest point, stacked
// in the order they were made (memory_viz's "active memory timeline"). Computed apart from the drawing
// (memory_timeline_png) so that what the image shows can be checked.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace td {

struct MemoryColumns {
  struct Tensor {
    int64_t id = 0, bytes = 0;
    std::string where;  // the script line that made it
    int line = 0;       // that line's number among the lines that made tensors, in the order they first did
  };
  struct Column {
    int64_t firstEvent = 0, lastEvent = 0;  // the events it pools, inclusive
    int64_t shownEvent = 0;                 // the highest of them, whose state is drawn
    std::vector<int64_t> stack;             // tensor ids alive there, bottom (oldest) first
    int64_t bytes = 0;
  };
  std::vector<Tensor> tensors;  // by id - 1 (ids start at 1); unknown ids stay empty
  std::vector<Column> columns;
  struct Launch {
    int64_t event = 0, number = 0;
    std::string where;
  };
  std::vector<Launch> launches;
  int64_t events = 0, peakBytes = 0, peakEvent = -1;
  const Tensor& tensor(int64_t id) const { return tensors.at(static_cast<size_t>(id - 1)); }
};

// From the timeline JSON (events: {event: alloc|free|launch, tensor, bytes, where, launch}); throws
// std::invalid_argument when it has no events list.
MemoryColumns memoryColumns(const nlohmann::json& timeline, int64_t columns);

// Writes `path` (PNG): the stacked columns coloured by the line that made each tensor, launches as
// vertical lines, the peak marked, a legend of the largest tensors at the peak. InputError naming the file
// when it cannot be written, or when this build has no cairo (the static GPU build).
void writeMemoryTimelinePng(const std::string& path, const std::string& title, const MemoryColumns& m);

// The colour of a tensor in the picture: one per line that made tensors (Tensor::line), from a fixed
// palette of 10 taken in order, so the first ten lines never share one.
struct Rgb8 {
  int r, g, b;
};
Rgb8 lineColour(int line);

}  // namespace td
