#include <fmt/format.h>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "model/rules.h"

namespace td::cli {

// `tile-doctor rules [--format json]`: every finding kind with its rule metadata (model/rules.h).
std::function<int()> addRulesCommand(CLI::App& app) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* sub = app.add_subcommand("rules", "list every finding kind with its family, severity, description and cure");
  sub->add_option("--format", *format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return [format] {
    if (*format == "json") {
      nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"rules", nlohmann::json::array()}};
      for (const Rule& r : allRules())
        j["rules"].push_back({{"id", r.id}, {"family", r.family}, {"severity", severityName(r.severity)},
                              {"short_description", r.shortDescription}, {"full_description", r.fullDescription},
                              {"help", r.help}, {"fields", r.fields}});
      std::cout << j.dump(1) << "\n";
    } else {
      std::cout << fmt::format("{:<27} {:<7} {:<8} {}\n", "kind", "family", "severity", "what it says");
      for (const Rule& r : allRules())
        std::cout << fmt::format("{:<27} {:<7} {:<8} {}\n", r.id, r.family, severityName(r.severity), r.shortDescription);
    }
    return std::cout ? 0 : 2;
  };
}

}  // namespace td::cli
