#include "runtime/cuda/capped_load.h"

#include <cstdlib>
#include <fmt/format.h>
#include <optional>
#include <vector>

#include "frontend/occupancy.h"
#include "runtime/cuda/kernel_as_written.h"
#include "runtime/cuda/register_cap.h"

namespace td::cuda {

namespace {

// capForOccupancy's work; an exception leaves the uncapped module in place.
std::string tryCaps(const Driver& d, CUdevice dev, const Bundle& b, const std::string& arch, const std::string& entry,
                    const std::string& ptx, uint32_t dynamicShared, CUmodule& mod) {
  if (const char* bench = std::getenv("TILE_DOCTOR_BENCH_MAX_REGISTERS")) {
    int64_t cap = std::atoi(bench);
    std::string capped = withRegisterCap(ptx, entry, cap);
    auto l = capped.empty() ? std::nullopt : loadWithFigures(d, capped, entry);
    if (!l) return "";
    d.cuModuleUnload(mod);
    mod = l->first;
    return fmt::format("registers capped at {} a thread (bench)", cap);
  }
  std::optional<EntryFigures> uncapped = entryFigures(d, mod, entry);
  if (!uncapped) return "";
  const int64_t registers = uncapped->registers;
  Profile sm = deviceOccupancy(d, dev);
  KernelResources checked{registers, uncapped->staticShared + int64_t{dynamicShared}};
  const int64_t threads = b.threadsPerBlock();
  auto blocks = [&](const KernelResources& k) { return occupancyOf({threads, k.sharedPerBlock, k.registers}, sm).blocksPerSm; };
  // Only a kernel that lost blocks to its registers asks for the kernel as written (a compile and a module load);
  // registers 0 are not counted.
  if (blocks({0, checked.sharedPerBlock}) <= blocks(checked)) return "";
  std::optional<KernelResources> written = kernelAsWritten(d, b, arch);
  if (!written) return "";
  // The loosest cap first (one block more), then tighter ones while their spills stay within the allowance
  // (spills grow as a cap falls): a kernel no cap suits costs one assembly more on its first check, not one a step.
  std::vector<int64_t> caps = registerCaps(*written, checked, threads, sm);
  std::optional<std::pair<CUmodule, EntryFigures>> best;
  int64_t bestCap = 0;
  for (int64_t cap : caps) {
    std::string capped = withRegisterCap(ptx, entry, cap);
    auto l = capped.empty() ? std::nullopt : loadWithFigures(d, capped, entry);
    if (!l) break;
    if (l->second.localBytes - uncapped->localBytes > kSpillAllowance) {
      d.cuModuleUnload(l->first);
      break;
    }
    if (best) d.cuModuleUnload(best->first);
    best = l, bestCap = cap;
  }
  if (!best)
    return fmt::format("registers not capped: {} a thread, {} blocks per SM (the kernel as written: {}); a cap that adds a block "
                       "spills more than {} bytes a thread", registers, blocks(checked), blocks(*written), kSpillAllowance);
  d.cuModuleUnload(mod);
  mod = best->first;
  return fmt::format("registers capped at {} a thread ({} uncapped): {} blocks per SM instead of {} (the kernel as written: {} "
                     "registers, {})", bestCap, registers, blocks({best->second.registers, checked.sharedPerBlock}), blocks(checked),
                     written->registers, blocks(*written));
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
