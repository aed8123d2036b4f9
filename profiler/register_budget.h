// Registers a block takes on an NVIDIA target, as the driver counts them at launch: the assembler's registers
// a thread, per warp rounded up to the allocation unit, times the block's warps; against the registers a block
// may have. `check` asks only where it could fail: a kernel without __launch_bounds__ (with them, the
// assembler keeps within the block's share and spills instead) launched with more threads than 255 registers
// each would fit.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "frontend/manifest.h"
#include "frontend/profile.h"
#include "instrument/launch_bounds.h"
#include "profiler/ptxas_usage.h"

namespace td {

struct KernelModule;

int64_t blockRegisters(int64_t perThread, int64_t threadsPerBlock, const Profile& p);

// Whether the launch could take more registers than a block may have: worth asking the assembler.
bool registersMayNotFit(const Bundle& b, const Profile& p, const LaunchBounds& bounds);

// The assembler's figure for `km`'s kernel (its PTX from LLVM's NVPTX back end, for `arch`), nullopt with
// `why` where there is no ptxas, no libdevice, or it failed.
std::optional<PtxasUsage> kernelRegisters(KernelModule& km, const Bundle& b, const std::string& arch, std::string* why);

// The kernel as written (compiled again without checks), for check: nullopt where not known.
std::optional<PtxasUsage> uncheckedKernelRegisters(const Bundle& b, const std::string& arch);

}  // namespace td
