#include "profiler/register_budget.h"

#include "frontend/input_error.h"
#include "instrument/pipeline.h"
#include "runtime/cuda/ptx.h"

namespace td {

namespace {
constexpr int64_t kMostRegistersPerThread = 255;  // NVIDIA's per-thread maximum from compute capability 3.5 on
int64_t roundUp(int64_t n, int64_t unit) { return unit > 1 ? (n + unit - 1) / unit * unit : n; }
}  // namespace

int64_t blockRegisters(int64_t perThread, int64_t threadsPerBlock, const Profile& p) {
  int64_t warps = (threadsPerBlock + p.warpSize - 1) / p.warpSize;
  return roundUp(perThread * p.warpSize, p.registerAllocUnit) * warps;
}

bool registersMayNotFit(const Bundle& b, const Profile& p, const LaunchBounds& bounds) {
  int64_t threads = b.block[0] * b.block[1] * b.block[2];
  return p.vendor == "NVIDIA" && p.registersPerBlock > 0 && bounds.maxThreads == 0 &&
         blockRegisters(kMostRegistersPerThread, threads, p) > p.registersPerBlock && !findPtxas().empty();
}

std::optional<PtxasUsage> kernelRegisters(KernelModule& km, const Bundle& b, const std::string& arch, std::string* why) {
  try {
    std::string ptx = cuda::generatePtx(*km.module, arch, b.grid.data(), b.block.data());
    return ptxasUsage(ptx, arch, km.entrySymbol, why);
  } catch (const InputError& e) {  // libdevice missing for a kernel that calls the math library
    *why = e.what();
    return std::nullopt;
  }
}

std::optional<PtxasUsage> uncheckedKernelRegisters(const Bundle& b, const std::string& arch) {
  KernelModule km = buildKernelModule(b, CheckSet::parse("launch"));
  std::string why;
  return kernelRegisters(km, b, arch, &why);
}

}  // namespace td
