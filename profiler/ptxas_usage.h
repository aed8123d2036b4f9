// Registers and local memory per thread as NVIDIA's assembler allocates them: `ptxas -v` on the kernel's
// PTX (LLVM's NVPTX back end, as the CUDA executor compiles it), where the CUDA toolkit is installed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace td {

struct PtxasUsage {
  int64_t registers = 0;
  int64_t stackFrame = 0, spillStores = 0, spillLoads = 0;  // bytes per thread
  std::string source;  // "ptxas 13.0 -v, sm_90"
};

// The assembler: $CUDA_HOME/bin/ptxas, $CUDA_PATH/bin/ptxas, /usr/local/cuda/bin/ptxas, then PATH; "" none.
std::string findPtxas();

// Usage of `entry` in `ptx` for `arch` ("sm_90"); nullopt with `why` set when there is no ptxas or it
// failed. `ptxasVerbose` parses ptxas -v's report (split out for tests).
std::optional<PtxasUsage> ptxasUsage(const std::string& ptx, const std::string& arch, const std::string& entry,
                                     std::string* why);
std::optional<PtxasUsage> parsePtxasVerbose(const std::string& text, const std::string& entry);

}  // namespace td
