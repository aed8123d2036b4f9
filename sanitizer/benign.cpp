#include "sanitizer/benign.h"

#include <fmt/format.h>

#include "model/rules.h"

namespace td {

void setBenignAside(Report& r, const FamilySettings& settings) {
  std::vector<Finding> kept;
  for (Finding& f : r.findings) {
    const Rule* rule = findRule(f.kind);
    if (rule && rule->reportedWith && !settings.count(rule->reportedWith)) r.benign.push_back(std::move(f));
    else kept.push_back(std::move(f));
  }
  r.findings = std::move(kept);
}

std::string benignNote(const Report& r) {
  std::string sites, options;
  for (const Finding& f : r.benign) {
    const Rule* rule = findRule(f.kind);
    sites += fmt::format("{}{} ({}x at {}{}{})", sites.empty() ? "" : "; ", rule ? rule->shortDescription : f.kind, f.count,
                         f.loc.str(), f.loc.python.empty() ? "" : " from " + f.loc.python,
                         f.buffer.empty() ? "" : " on " + f.buffer);
    std::string option = rule && rule->reportedWith ? fmt::format("--{}", rule->reportedWith) : "";
    if (!option.empty() && options.find(option) == std::string::npos) options += (options.empty() ? "" : " or ") + option;
  }
  if (sites.empty()) return "";
  return fmt::format("set aside as benign, not counted ({} reports them): {}", options, sites);
}

}  // namespace td
