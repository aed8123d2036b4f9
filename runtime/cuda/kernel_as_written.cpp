#include "runtime/cuda/kernel_as_written.h"

#include <exception>

#include "instrument/pipeline.h"
#include "runtime/cuda/ptx.h"
#include "runtime/cuda/ptx_cache.h"

namespace td::cuda {

std::optional<EntryFigures> entryFigures(const Driver& d, CUmodule mod, const std::string& entry) {
  CUfunction fn = nullptr;
  int registers = 0, local = 0, shared = 0;
  if (d.cuModuleGetFunction(&fn, mod, entry.c_str()) != 0 || d.cuFuncGetAttribute(&registers, kFuncNumRegisters, fn) != 0 ||
      d.cuFuncGetAttribute(&local, kFuncLocalSizeBytes, fn) != 0 || d.cuFuncGetAttribute(&shared, kFuncSharedSizeBytes, fn) != 0)
    return std::nullopt;
  return EntryFigures{registers, local, shared};
}

std::optional<std::pair<CUmodule, EntryFigures>> loadWithFigures(const Driver& d, const std::string& ptx, const std::string& entry) {
  CUmodule mod = nullptr;
  if (d.cuModuleLoadDataEx(&mod, ptx.c_str(), 0, nullptr, nullptr) != 0) return std::nullopt;
  std::optional<EntryFigures> f = entryFigures(d, mod, entry);
  if (f) return std::make_pair(mod, *f);
  d.cuModuleUnload(mod);
  return std::nullopt;
}

std::optional<KernelResources> kernelAsWritten(const Driver& d, const Bundle& b, const std::string& arch) {
  std::string ptx, entry;
  try {
    KernelModule km = buildKernelModule(b, CheckSet::asWritten());
    entry = km.entrySymbol;
    std::string key = ptxKey(*km.module, arch, b.grid.data(), b.block.data(), {});
    std::optional<std::string> cached = loadPtx(key);
    ptx = cached ? *cached : generatePtx(*km.module, arch, b.grid.data(), b.block.data());
    if (!cached) storePtx(key, ptx);
  } catch (const std::exception&) {
    return std::nullopt;  // the checked kernel compiled, so this is the cap's loss alone: run uncapped
  }
  auto loaded = loadWithFigures(d, ptx, entry);
  if (!loaded) return std::nullopt;
  d.cuModuleUnload(loaded->first);
  return KernelResources{loaded->second.registers, loaded->second.staticShared + b.dynamicShared};
}

Profile deviceOccupancy(const Driver& d, CUdevice dev) {
  auto attribute = [&](int which) {
    int v = 0;
    return d.cuDeviceGetAttribute(&v, which, dev) == 0 ? int64_t{v} : int64_t{0};
  };
  Profile p;
  p.name = "this GPU";
  p.vendor = "NVIDIA";
  p.threadsPerSm = attribute(kAttrMaxThreadsPerSm);
  p.sharedPerSm = attribute(kAttrMaxSharedPerSm);
  p.registersPerSm = attribute(kAttrMaxRegistersPerSm);
  p.registersPerBlock = attribute(kAttrMaxRegistersPerBlock);
  p.blocksPerSm = attribute(kAttrMaxBlocksPerSm);
  p.reservedSharedPerBlock = attribute(kAttrReservedSharedPerBlock);
  p.registerAllocUnit = 256;
  p.sharedAllocUnit = 128;
  return p;
}

}  // namespace td::cuda
