// `tile-doctor profile BUNDLE [--target T]...`: a launch's resources and its occupancy on each target
// (profiler/profile_report.h).
#include <fmt/format.h>
#include <map>

#include "cli/commands.h"
#include "cli/script_check.h"
#include "driver/script_run.h"
#include "frontend/input_error.h"
#include "frontend/profile.h"
#include "profiler/profile_report.h"

namespace td::cli {

namespace {

struct ProfileArgs {
  std::string input, format = "text", out;
  std::vector<std::string> targets, params;
};

// A script, once per target (each lowers it its own way: CUDA for NVIDIA, the wave-64 stand-in for MetaX),
// with the launch checks only; every launch checked is profiled from its captured bundle while that is on
// disk. Launches are matched across targets by their number.
int profileScript(const ProfileArgs& a, const std::vector<std::string>& targets) {
  if (!a.params.empty()) throw InputError("--param", 0, "a script's launches take their shapes from the script");
  std::map<int, std::vector<std::pair<Run, ProfileReport>>> launches;  // launch number -> per target
  std::vector<std::string> failures;
  ReportSink sink(a.out);
  int worst = 0;
  for (const std::string& target : targets) {
    ScriptCheckRequest req;
    req.check.bundlePath = a.input;
    req.check.target = target;
    req.check.checks = "launch";
    req.scriptArgs = scriptArguments();
    req.stdoutToStderr = a.out.empty() && a.format == "json";
    req.onChecked = [&](const Run& item, const CheckResult& res) {
      launches[item.launch].push_back({item, buildProfileReport(res.bundle.manifestPath, {}, {target})});
    };
    RunSet set = checkScriptRuns(req);
    int code = set.exitCode();
    if (code != 0 && code != 1 && code != kExitScriptFailed) worst = std::max(worst, code);
    if (set.script && set.script->exitCode != 0)
      failures.push_back(fmt::format("on {} the script failed: {} ({})", target, set.script->exitWhy, set.script->exitWhere));
  }
  if (a.format == "json") {
    nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"command", "profile"}, {"script", a.input},
                        {"launches", nlohmann::json::array()}, {"notes", failures}};
    for (const auto& [number, perTarget] : launches)
      for (const auto& [item, report] : perTarget)
        j["launches"].push_back({{"launch", item.launch}, {"entry", item.entry}, {"called_at", item.calledAt},
                                 {"compiled_at", item.compiledAt}, {"profile", profileJson(report)}});
    j["exit_code"] = worst;
    sink.write(j.dump(1) + "\n");
    return worst;
  }
  std::string text;
  for (const auto& [number, perTarget] : launches)
    for (const auto& [item, report] : perTarget)
      text += fmt::format("== {} on {} ==\n", item.launch ? fmt::format("launch {} at {}", item.launch, item.calledAt)
                                                            : fmt::format("kernel {} compiled at {}, never launched", item.entry,
                                                                          item.compiledAt),
                          report.targets.front().target.name) +
              renderProfileText(report) + "\n";
  if (launches.empty()) text += "no launch was profiled (the script launched no kernel)\n";
  for (const std::string& f : failures) text += "note: " + f + "\n";
  sink.write(text);
  return worst;
}

int runProfile(const ProfileArgs& a) {
  std::vector<std::string> targets = a.targets.empty() ? std::vector<std::string>{kDefaultTarget} : a.targets;
  if (isScript(a.input)) return profileScript(a, targets);
  if (!scriptArguments().empty()) throw InputError(a.input, 0, "arguments after -- are for TileLang scripts (kernel.py) only");
  std::vector<std::pair<std::string, std::string>> params;
  for (const std::string& p : a.params) {
    size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--param", 0, fmt::format("'{}' is not NAME=VALUE", p));
    params.push_back({p.substr(0, eq), p.substr(eq + 1)});
  }
  ReportSink sink(a.out);
  ProfileReport r = buildProfileReport(a.input, params, targets);
  sink.write(a.format == "json" ? profileJson(r).dump(1) + "\n" : renderProfileText(r));
  return 0;
}

}  // namespace

std::function<int()> addProfileCommand(CLI::App& app) {
  auto a = std::make_shared<ProfileArgs>();
  CLI::App* sub = app.add_subcommand("profile", "a launch's resources (global, shared, private memory, registers) and its "
                                                "occupancy on each target, with the limiting resource");
  sub->add_option("bundle", a->input, "the bundle manifest, or a TileLang script (every launch profiled; its own "
                                      "arguments follow --)")->required();
  sub->add_option("--target", a->targets, "a target profile, repeatable: side by side (default nvidia-h200)")
      ->allow_extra_args(false);
  sub->add_option("--param", a->params, "override a parameter: NAME=VALUE (repeatable)")->allow_extra_args(false);
  sub->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->add_option("--out", a->out, "write the report to FILE");
  return [a] {
    CheckArgs stops;  // bad input and the like end as check's do
    stops.format = a->format;
    stops.out = a->out;
    return runWritingStops(stops, [&] { return runProfile(*a); });
  };
}

}  // namespace td::cli
