// Turns the instrumented NVPTX module into host IR for the CPU executor: special registers become
// loads from the thread's context, barriers and warp collectives calls into the SIMT scheduler,
// __shared__ variables offsets into the block's shared window, and a trampoline calls the kernel
// with its arguments from an array of pointers.
#pragma once
#include <cstdint>
#include <string>

namespace llvm {
class Module;
class DataLayout;
}  // namespace llvm

namespace td {
struct SiteTable;
}

namespace td::cpu {

struct RetargetResult {
  uint64_t staticSharedBytes = 0;  // the window holds these, then the dynamic shared memory
};

constexpr const char* kTrampolineName = "__td_cpu_trampoline";

// Throws InputError for what the CPU executor cannot run (an unknown intrinsic, inline PTX), naming
// the statement and its source line.
// The module is compiled for one launch: block and grid sizes and the warp size become constants, and
// thread and block indices carry their ranges, so the optimiser can prove most access checks true.
struct LaunchConstants {
  uint32_t grid[3], block[3], warpSize;
  uint32_t sharedWindowBytes;  // static + dynamic shared memory of the launch
  uint32_t regionsPresent = 0; // bit i: region i (abi.h) has an instance in ThreadCtx::region
};

// Device-runtime hooks marked TD_INLINE_ON_CPU (td_core.cuh) carry this function attribute: the pipeline
// turns every annotate("X") of the runtime into the attribute X.
constexpr const char* kInlineOnCpuAttribute = "td.inline_on_cpu";

RetargetResult retargetToHost(llvm::Module& m, const std::string& entrySymbol, const std::string& triple,
                              const llvm::DataLayout& dl, const SiteTable& sites, const LaunchConstants& launch);

// Links the CPU's libdevice replacements (cpu_libdevice.cu) for the __nv_* functions the module calls.
void linkCpuLibdevice(llvm::Module& m);

}  // namespace td::cpu
