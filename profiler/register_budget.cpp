#include "profiler/register_budget.h"

#include <filesystem>
#include <fmt/format.h>
#include <sstream>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "frontend/cache_files.h"
#include "frontend/input_error.h"
#include "instrument/pipeline.h"
#include "runtime/cuda/ptx.h"

namespace td {

namespace fs = std::filesystem;

namespace {
constexpr int64_t kMostRegistersPerThread = 255;  // NVIDIA's per-thread maximum from compute capability 3.5 on
int64_t roundUp(int64_t n, int64_t unit) { return unit > 1 ? (n + unit - 1) / unit * unit : n; }
}  // namespace

int64_t blockRegisters(int64_t perThread, int64_t threadsPerBlock, const Profile& p) {
  int64_t warps = (threadsPerBlock + p.warpSize - 1) / p.warpSize;
  return roundUp(perThread * p.warpSize, p.registerAllocUnit) * warps;
}

bool registersMayNotFit(const Bundle& b, const Profile& p, const LaunchBounds& bounds) {
  return p.vendor == "NVIDIA" && p.registersPerBlock > 0 && bounds.maxThreads == 0 &&
         blockRegisters(kMostRegistersPerThread, b.threadsPerBlock(), p) > p.registersPerBlock && !findPtxas().empty();
}

namespace {

// The assembler's figure is kept between runs, keyed by the module's bitcode, the launch shape it is
// specialised to, the architecture and the assembler itself: a repeated profile skips the NVPTX back end
// and ptxas (the two cost about a tenth of a second a kernel).
fs::path registersEntry(const llvm::Module& m, const Bundle& b, const std::string& arch, const std::string& ptxas) {
  if (cacheDir().empty()) return {};
  llvm::SmallVector<char, 0> bitcode;
  llvm::BitcodeWriter writer(bitcode);
  writer.writeModule(m);
  writer.writeSymtab();
  writer.writeStrtab();
  CacheKey key;
  key.add(toolIdentity()).add(ptxas).add(stamp(ptxas)).add(arch);
  for (int64_t d : b.grid) key.add(std::to_string(d));
  for (int64_t d : b.block) key.add(std::to_string(d));
  key.add(std::string_view(bitcode.data(), bitcode.size()));
  return fs::path(cacheDir()) / "registers" / (key.hex() + ".txt");
}

std::optional<PtxasUsage> readEntry(const fs::path& entry) {
  std::optional<std::string> text = readCacheEntry(entry, entry.stem().string());
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  PtxasUsage u;
  if (!(in >> u.registers >> u.stackFrame >> u.spillStores >> u.spillLoads) || !std::getline(in >> std::ws, u.source))
    return std::nullopt;
  return u;
}

}  // namespace

std::optional<PtxasUsage> kernelRegisters(KernelModule& km, const Bundle& b, const std::string& arch, std::string* why) {
  std::string ptxas = findPtxas();
  fs::path entry = ptxas.empty() ? fs::path() : registersEntry(*km.module, b, arch, ptxas);
  if (!entry.empty())
    if (auto hit = readEntry(entry)) return hit;
  std::optional<PtxasUsage> u;
  try {
    std::string ptx = cuda::generatePtx(*km.module, arch, b.grid.data(), b.block.data());
    u = ptxasUsage(ptx, arch, km.entrySymbol, why);
  } catch (const InputError& e) {  // libdevice missing for a kernel that calls the math library
    *why = e.what();
    return std::nullopt;
  }
  if (u && !entry.empty()) {
    std::error_code ec;
    fs::create_directories(entry.parent_path(), ec);
    // a cache that cannot be written only costs time
    writeCacheEntry(entry, entry.stem().string(),
                    fmt::format("{} {} {} {}\n{}\n", u->registers, u->stackFrame, u->spillStores, u->spillLoads, u->source));
  }
  return u;
}

std::optional<PtxasUsage> uncheckedKernelRegisters(const Bundle& b, const std::string& arch) {
  KernelModule km = buildKernelModule(b, CheckSet::asWritten());
  std::string why;
  return kernelRegisters(km, b, arch, &why);
}

}  // namespace td
