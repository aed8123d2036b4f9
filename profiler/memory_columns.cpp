#include "profiler/memory_columns.h"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

namespace td {

MemoryColumns memoryColumns(const nlohmann::json& timeline, int64_t columns) {
  if (!timeline.is_object() || !timeline.contains("events") || !timeline["events"].is_array())
    throw std::invalid_argument("the memory timeline has no events");
  const nlohmann::json& events = timeline["events"];
  MemoryColumns m;
  m.events = static_cast<int64_t>(events.size());
  m.peakBytes = timeline.value("peak_bytes", int64_t(0));
  m.peakEvent = timeline.value("peak_event", int64_t(-1));
  std::vector<int64_t> current(events.size(), 0);
  std::map<std::string, int> lines;  // where -> its order of first appearance
  for (size_t i = 0; i < events.size(); ++i) {
    const nlohmann::json& e = events[i];
    current[i] = e.value("current", int64_t(0));
    std::string kind = e.value("event", std::string());
    if (kind == "launch") m.launches.push_back({static_cast<int64_t>(i), e.value("launch", int64_t(0)), e.value("where", std::string())});
    if (kind != "alloc") continue;
    int64_t id = e.value("tensor", int64_t(0));
    if (id <= 0) continue;
    if (m.tensors.size() < static_cast<size_t>(id)) m.tensors.resize(static_cast<size_t>(id));
    std::string where = e.value("where", std::string());
    int line = lines.emplace(where, static_cast<int>(lines.size())).first->second;
    m.tensors[static_cast<size_t>(id - 1)] = {id, e.value("bytes", int64_t(0)), where, line};
  }
  int64_t n = m.events, cols = std::max<int64_t>(1, std::min(columns, n));
  if (n == 0) return m;
  // each column pools a run of events and shows the state at the highest of them
  for (int64_t c = 0; c < cols; ++c) {
    MemoryColumns::Column col;
    col.firstEvent = c * n / cols;
    col.lastEvent = (c + 1) * n / cols - 1;
    col.shownEvent = col.firstEvent;
    for (int64_t i = col.firstEvent; i <= col.lastEvent; ++i)
      if (current[static_cast<size_t>(i)] > current[static_cast<size_t>(col.shownEvent)]) col.shownEvent = i;
    m.columns.push_back(col);
  }
  // replay once; the live set in allocation order is the stack
  std::map<int64_t, int64_t> live;  // tensor id (allocation order) -> bytes
  size_t next = 0;
  for (int64_t i = 0; i < n && next < m.columns.size(); ++i) {
    const nlohmann::json& e = events[static_cast<size_t>(i)];
    std::string kind = e.value("event", std::string());
    int64_t id = e.value("tensor", int64_t(0));
    if (kind == "alloc" && id > 0) live[id] = e.value("bytes", int64_t(0));
    if (kind == "free") live.erase(id);
    while (next < m.columns.size() && m.columns[next].shownEvent == i) {
      MemoryColumns::Column& col = m.columns[next++];
      for (const auto& [tid, bytes] : live) {
        col.stack.push_back(tid);
        col.bytes += bytes;
      }
    }
  }
  return m;
}

Rgb8 lineColour(int line) {
  // Tableau 10, the palette memory_viz draws its allocations with
  static const Rgb8 palette[] = {{78, 121, 167}, {242, 142, 44}, {225, 87, 89}, {118, 183, 178}, {89, 161, 79},
                                 {237, 201, 73}, {175, 122, 161}, {255, 157, 167}, {156, 117, 95}, {186, 176, 171}};
  return palette[static_cast<size_t>(line) % 10];
}

}  // namespace td
