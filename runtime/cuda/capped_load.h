// Loads a checked kernel's module with its registers capped where that keeps more of its blocks on an SM at
// little spilling (register_cap.h): the kernel as written gives the target, the driver's assembler says what
// each cap costs in local memory, and the tightest cap within kSpillAllowance replaces the uncapped module. The
// driver's compute cache keeps each variant's cubin, so a repeated check pays module loads, not assembly.
#pragma once
#include <string>

#include "frontend/manifest.h"
#include "runtime/cuda/driver.h"

namespace td::cuda {

// `mod` holds `ptx` loaded uncapped; it may be replaced by a capped module. Returns what was done for the
// report's device line ("" where nothing was). Bench-only: TILE_DOCTOR_BENCH_MAX_REGISTERS=N sets the cap
// instead (0: none), to measure what occupancy is worth.
std::string capForOccupancy(const Driver& d, CUdevice dev, const Bundle& b, const std::string& arch,
                            const std::string& entry, const std::string& ptx, uint32_t dynamicShared, CUmodule& mod);

}  // namespace td::cuda
