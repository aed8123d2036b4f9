#include <fmt/format.h>
#include <iostream>
#include <string>

#include "cli/commands.h"
#include "frontend/profile.h"

namespace td::cli {

std::function<int()> addTargetsCommand(CLI::App& app) {
  app.add_subcommand("targets", "list the target profiles (profiles/*.toml)");
  return [] {
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
