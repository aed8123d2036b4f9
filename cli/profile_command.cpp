// `tile-doctor profile BUNDLE [--target T]...`: a launch's resources and its occupancy on each target
// (profiler/profile_report.h).
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/script_check.h"
#include "frontend/input_error.h"
#include "frontend/profile.h"
#include "profiler/profile_report.h"

namespace td::cli {

namespace {

struct ProfileArgs {
  std::string input, format = "text", out;
  std::vector<std::string> targets, params;
};

int runProfile(const ProfileArgs& a) {
  if (isScript(a.input))
    throw InputError(a.input, 0, "profile takes a bundle; a script's launches: check kernel.py --keep DIR captures them as "
                                 "bundles to profile (the script's memory timeline is not built yet)");
  std::vector<std::pair<std::string, std::string>> params;
  for (const std::string& p : a.params) {
    size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("--param", 0, fmt::format("'{}' is not NAME=VALUE", p));
    params.push_back({p.substr(0, eq), p.substr(eq + 1)});
  }
  std::vector<std::string> targets = a.targets.empty() ? std::vector<std::string>{kDefaultTarget} : a.targets;
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
  sub->add_option("bundle", a->input, "the bundle manifest")->required();
  sub->add_option("--target", a->targets, "a target profile, repeatable: side by side (default nvidia-h200)")
      ->allow_extra_args(false);
  sub->add_option("--param", a->params, "override a parameter: NAME=VALUE (repeatable)")->allow_extra_args(false);
  sub->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->add_option("--out", a->out, "write the report to FILE");
  return [a] { return runProfile(*a); };
}

}  // namespace td::cli
