// `tile-doctor diff` reports: text for people, JSON (docs/report-format.md, "diff reports") for CI.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "diff/diff_run.h"
#include "diff/script_diff.h"

namespace td {

std::string renderDiffText(const DiffReport& r);
nlohmann::json diffJson(const DiffReport& r);
std::string renderScriptDiffText(const ScriptDiffReport& r);
nlohmann::json scriptDiffJson(const ScriptDiffReport& r);

}  // namespace td
