// Generated-source line -> script line, for kernels a DSL generated (TileLang's #line directives, kept by
// the capture module beside the bundle). File format: one "GENERATED_LINE<TAB>FILE:LINE" per line.
#pragma once
#include <map>
#include <string>

namespace td {

using LineMap = std::map<unsigned, std::string>;

// Throws InputError naming the file and line of a malformed entry.
LineMap loadLineMap(const std::string& path);

}  // namespace td
