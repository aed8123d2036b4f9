// Reporters: ASan-style text (coloured on a terminal) and JSON (schema in docs/report-format.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "sanitizer/finding.h"

namespace td {

std::string renderText(const Report& r, bool colour);
std::string renderJson(const Report& r);
nlohmann::json reportJson(const Report& r);  // the same report as a JSON value, to embed in another

}  // namespace td
