// What one launch of a bundle's kernel takes, before it runs: global memory per buffer, shared memory per
// block (each static array, the dynamic amount, and on a stand-in what the target's own lowering
// allocates), private memory per thread, registers and spills from NVIDIA's assembler, threads and blocks.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "profiler/ptxas_usage.h"

namespace td {
struct Bundle;
struct KernelModule;
}

namespace td {

struct LaunchProfile {
  std::string kernel, bundle;
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  struct Buffer {
    std::string name, type;
    std::vector<int64_t> shape;
    int64_t bytes = 0;
    bool output = false;
  };
  std::vector<Buffer> buffers;
  int64_t globalBytes = 0;
  std::vector<std::pair<std::string, int64_t>> staticShared;  // each __shared__ array, bytes
  int64_t staticSharedBytes = 0, dynamicShared = 0;
  int64_t targetDynamicShared = -1;  // the target's own lowering's, where the source is a stand-in
  int64_t privateBytes = 0;          // stack arrays a thread keeps in memory (a lower bound)
  std::optional<PtxasUsage> registers;
  std::string registersWhy;          // why there is no register figure
  int64_t threadsPerBlock() const { return block[0] * block[1] * block[2]; }
  int64_t blocks() const { return grid[0] * grid[1] * grid[2]; }
  // Shared memory a block takes on the target: static + dynamic (the target's own where it differs).
  int64_t sharedPerBlock() const { return staticSharedBytes + (targetDynamicShared >= 0 ? targetDynamicShared : dynamicShared); }
};

// Compiles the bundle (no checks) and measures it; `ptxArch` ("sm_90", "" for none) is the architecture
// whose assembler gives the registers. InputError for bad input, as check gives it.
LaunchProfile profileLaunch(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& params,
                            const std::string& ptxArch);

// The same from a module already compiled without checks (check --checks launch: CheckRequest::inspectModule).
LaunchProfile profileModule(const Bundle& b, KernelModule& km, const std::string& ptxArch);

}  // namespace td
