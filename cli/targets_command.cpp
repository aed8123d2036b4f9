#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "driver/script_run.h"
#include "frontend/profile.h"

namespace td::cli {

std::function<int()> addTargetsCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("targets", "list the target profiles (profiles/*.toml)");
  auto format = std::make_shared<std::string>("text");
  sub->add_option("--format", *format, "text, or json: each profile as the Python capture reads it (tile_doctor.checking)")
      ->check(CLI::IsMember({"text", "json"}));
  return [format] {
    if (*format == "json") {
      nlohmann::json all = nlohmann::json::object();
      for (const Profile& p : loadAllProfiles()) all[p.name] = captureProfileJson(p.name);
      std::cout << nlohmann::json{{"default", kDefaultTarget}, {"targets", all}}.dump(1) << "\n";
      return 0;
    }
    std::cout << fmt::format("{:<13} {:<7} {:>4} {:>13} {:>8} {:>12} {:>5} {:>8} {:>10} {:>8}\n", "target", "vendor",
                             "warp", "smem/block", "threads", "private/thr", "SMs", "mem GiB", "GB/s", "fp16 TF");
    for (const Profile& p : loadAllProfiles())
      std::cout << fmt::format("{:<13} {:<7} {:>4} {:>13} {:>8} {:>12} {:>5} {:>8.0f} {:>10.0f} {:>8.0f}{}\n", p.name,
                               p.vendor, p.warpSize, p.sharedPerBlock, p.threadsPerBlock,
                               p.privatePerThread > 0 ? std::to_string(p.privatePerThread) : "?", p.smCount,
                               p.memoryBytes / 1073741824.0, p.bandwidthGBs, p.fp16Tflops,
                               p.name == kDefaultTarget ? "  (default)" : "");
    return 0;
  };
}

}  // namespace td::cli
