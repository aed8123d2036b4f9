#include "frontend/line_map.h"

#include <sstream>

#include "frontend/input_error.h"
#include "frontend/paths.h"
#include "frontend/text_bounds.h"

namespace td {

LineMap loadLineMap(const std::string& path) {
  std::istringstream in(readInputFile(path, "the line map", 64u << 20));
  LineMap map;
  std::string text;
  for (int lineNo = 1; std::getline(in, text); ++lineNo) {
    if (text.empty()) continue;
    size_t tab = text.find('\t'), colon = text.rfind(':');
    bool ok = text.size() <= 4096 && tab != std::string::npos && colon != std::string::npos && colon > tab + 1 &&
              isDecimal(text.substr(0, tab), 9) && isDecimal(text.substr(colon + 1), 9);
    if (!ok)
      throw InputError(path, lineNo, "a line-map entry must read GENERATED_LINE<TAB>FILE:LINE, not '" +
                                         quotable(text) + "'");
    map[static_cast<unsigned>(std::stoul(text.substr(0, tab)))] = text.substr(tab + 1);
  }
  return map;
}

}  // namespace td
