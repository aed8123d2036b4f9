#include "runtime/cuda/capped_load.h"

#include <cstdlib>
#include <fmt/format.h>
#include <optional>

#include "frontend/occupancy.h"
#include "runtime/cuda/kernel_as_written.h"
#include "runtime/cuda/register_cap.h"

namespace td::cuda {

namespace {

struct Loaded {
  CUmodule mod = nullptr;
  int64_t registers = 0, local = 0, staticShared = 0;
};

// The module of `ptx` and its entry's figures; nullopt where the driver refuses it.
std::optional<Loaded> load(const Driver& d, const std::string& ptx, const std::string& entry) {
  Loaded l;
  if (d.cuModuleLoadDataEx(&l.mod, ptx.c_str(), 0, nullptr, nullptr) != 0) return std::nullopt;
  CUfunction fn = nullptr;
  int registers = 0, local = 0, shared = 0;
  if (d.cuModuleGetFunction(&fn, l.mod, entry.c_str()) != 0 || d.cuFuncGetAttribute(&registers, kFuncNumRegisters, fn) != 0 ||
      d.cuFuncGetAttribute(&local, kFuncLocalSizeBytes, fn) != 0 || d.cuFuncGetAttribute(&shared, kFuncSharedSizeBytes, fn) != 0) {
    d.cuModuleUnload(l.mod);
    return std::nullopt;
  }
  l.registers = registers, l.local = local, l.staticShared = shared;
  return l;
}

// capForOccupancy's work; an exception leaves the uncapped module in place.
std::string tryCaps(const Driver& d, CUdevice dev, const Bundle& b, const std::string& arch, const std::string& entry,
                    const std::string& ptx, uint32_t dynamicShared, CUmodule& mod) {
  if (const char* bench = std::getenv("TILE_DOCTOR_BENCH_MAX_REGISTERS")) {
    std::string capped = withRegisterCap(ptx, entry, std::atoi(bench));
    std::optional<Loaded> l = capped.empty() ? std::nullopt : load(d, capped, entry);
    if (!l) return "";
    d.cuModuleUnload(mod);
    mod = l->mod;
    return fmt::format("registers capped at {} a thread (bench)", std::atoi(bench));
  }
  CUfunction fn = nullptr;
  int registers = 0, local = 0, staticShared = 0;
  if (d.cuModuleGetFunction(&fn, mod, entry.c_str()) != 0 || d.cuFuncGetAttribute(&registers, kFuncNumRegisters, fn) != 0 ||
      d.cuFuncGetAttribute(&local, kFuncLocalSizeBytes, fn) != 0 || d.cuFuncGetAttribute(&staticShared, kFuncSharedSizeBytes, fn) != 0)
    return "";
  Profile sm = deviceOccupancy(d, dev);
  KernelResources checked{registers, staticShared + int64_t{dynamicShared}};
  // Only a kernel that lost blocks to its checks asks for the kernel as written (a compile and a module load).
  int64_t threads = b.threadsPerBlock();
  if (occupancyOf({threads, checked.sharedPerBlock, 0}, sm).blocksPerSm <= occupancyOf({threads, checked.sharedPerBlock, registers}, sm).blocksPerSm)
    return "";
  std::optional<KernelResources> written = kernelAsWritten(d, b, arch);
  if (!written) return "";
  for (int64_t cap : registerCaps(*written, checked, threads, sm)) {
    std::string capped = withRegisterCap(ptx, entry, cap);
    std::optional<Loaded> l = capped.empty() ? std::nullopt : load(d, capped, entry);
    if (!l) continue;
    if (l->local - local > kSpillAllowance) {
      d.cuModuleUnload(l->mod);
      continue;
    }
    d.cuModuleUnload(mod);
    mod = l->mod;
    return fmt::format("registers capped at {} a thread ({} uncapped): {} blocks per SM instead of {} (the kernel as written: {} "
                       "registers, {})", cap, registers, occupancyOf({threads, checked.sharedPerBlock, l->registers}, sm).blocksPerSm,
                       occupancyOf({threads, checked.sharedPerBlock, registers}, sm).blocksPerSm, written->registers,
                       occupancyOf({threads, written->sharedPerBlock, written->registers}, sm).blocksPerSm);
  }
  return fmt::format("registers not capped: {} a thread, {} blocks per SM (the kernel as written: {}); a cap that adds a block "
                     "spills more than {} bytes a thread", registers, occupancyOf({threads, checked.sharedPerBlock, registers}, sm).blocksPerSm,
                     occupancyOf({threads, written->sharedPerBlock, written->registers}, sm).blocksPerSm, kSpillAllowance);
}

}  // namespace

std::string capForOccupancy(const Driver& d, CUdevice dev, const Bundle& b, const std::string& arch,
                            const std::string& entry, const std::string& ptx, uint32_t dynamicShared, CUmodule& mod) {
  try {
    return tryCaps(d, dev, b, arch, entry, ptx, dynamicShared, mod);
  } catch (const std::exception& e) {
    return std::string("registers not capped: ") + e.what();
  }
}

}  // namespace td::cuda
