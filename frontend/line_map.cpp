#include "frontend/line_map.h"

#include <fstream>
#include <regex>

#include "frontend/input_error.h"

namespace td {

LineMap loadLineMap(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot read the line map");
  static const std::regex entry(R"((\d+)\t(.+:\d+))");
  LineMap map;
  std::string text;
  for (int lineNo = 1; std::getline(in, text); ++lineNo) {
    if (text.empty()) continue;
    std::smatch m;
    if (!std::regex_match(text, m, entry))
      throw InputError(path, lineNo, "a line-map entry must read GENERATED_LINE<TAB>FILE:LINE, not '" + text + "'");
    map[static_cast<unsigned>(std::stoul(m[1]))] = m[2];
  }
  return map;
}

}  // namespace td
