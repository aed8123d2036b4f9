// The kernel as written (compiled again without checks), loaded by the driver: the registers and shared memory
// the GPU gives it, which the checked kernel's register cap keeps the occupancy of (register_cap.h). Its PTX
// goes through the PTX cache and its cubin through the driver's, so a repeated check pays a module load.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "frontend/manifest.h"
#include "runtime/cuda/driver.h"
#include "runtime/cuda/register_cap.h"

namespace td::cuda {

// What the driver's assembler gave `entry` of a loaded module; nullopt where the driver does not say.
struct EntryFigures {
  int64_t registers = 0, localBytes = 0, staticShared = 0;  // per thread, per thread, per block
};
std::optional<EntryFigures> entryFigures(const Driver& d, CUmodule mod, const std::string& entry);

// `ptx` loaded, with its entry's figures; nullopt (nothing left loaded) where the driver refuses it.
std::optional<std::pair<CUmodule, EntryFigures>> loadWithFigures(const Driver& d, const std::string& ptx, const std::string& entry);

// nullopt where the kernel as written does not compile or load here (then nothing is capped).
std::optional<KernelResources> kernelAsWritten(const Driver& d, const Bundle& b, const std::string& arch);

// The device's occupancy figures (frontend/occupancy.h) as its driver gives them; allocation units as the CUDA
// occupancy calculator's for compute capability 7.0 on (registers 256 a warp, shared memory 128 bytes).
Profile deviceOccupancy(const Driver& d, CUdevice dev);

}  // namespace td::cuda
