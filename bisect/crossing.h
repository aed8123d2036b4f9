// What changed across a threshold: the launch and buffers at the passing and the failing shape side by
// side, against the target's limits, and the index products that pass 2^31 or 2^32 between them — the
// usual causes of "works up to this size" (shared memory over the limit, a grid or block too large, an
// int32 offset that wraps).
#pragma once
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace td::bisect {

struct LaunchFacts {
  bool known = false;
  std::string target, kernel;
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  int64_t sharedBytes = 0;  // dynamic + static, per block
  struct Buffer {
    std::string name;
    std::vector<int64_t> dims;
    int64_t elementBytes = 0;
  };
  std::vector<Buffer> buffers;
  std::vector<std::pair<std::string, int64_t>> integers;  // the kernel's integer scalars
};

// A bundle's launch at a shape: the launch from the probe's report, buffers and scalars from the manifest
// evaluated at the shape (`overrides`: NAME=VALUE). Unknown (known = false) when either is missing.
LaunchFacts bundleFacts(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& overrides,
                        const nlohmann::json& report);
// A script's launch: one item of the script report's "launches" (its report, shapes and scalars).
LaunchFacts scriptLaunchFacts(const nlohmann::json& launchItem);

struct Change {
  std::string what;     // "shared memory per block"
  std::string text;     // "49152 -> 65792 bytes (metax-c500 allows 65536: crossed)"
  bool crossesLimit = false;
};

// Passing side first. `axisValues`: (name, passing value, failing value) of every axis.
std::vector<Change> whatChanged(const LaunchFacts& pass, const LaunchFacts& fail,
                                const std::vector<std::tuple<std::string, int64_t, int64_t>>& axisValues);

}  // namespace td::bisect
