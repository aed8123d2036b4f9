#include "runtime/cuda/ptx_cache.h"

#include <cstdlib>
#include <filesystem>
#include <llvm/IR/Module.h>

#include "frontend/cache_files.h"
#include "runtime/cuda/ptx.h"

namespace fs = std::filesystem;

namespace td::cuda {

namespace {

fs::path entryPath(const std::string& key) { return fs::path(cacheDir()) / "ptx" / (key + ".ptx"); }

}  // namespace

std::string ptxKey(const llvm::Module& m, const std::string& arch, const int64_t* grid, const int64_t* block,
                   const std::vector<std::string>& addressSymbols) {
  // TILE_DOCTOR_DUMP_PTX asks for the back end's output, so it runs.
  if (cacheDir().empty() || std::getenv("TILE_DOCTOR_DUMP_PTX")) return "";
  CacheKey key;
  key.add(toolIdentity()).add("nvptx").add(arch);
  for (int i = 0; i < 3; ++i) key.add(grid ? std::to_string(grid[i]) : "-").add(block ? std::to_string(block[i]) : "-");
  for (const std::string& s : addressSymbols) key.add(s);
  // libdevice is linked in from the toolkit when the kernel calls CUDA math: another toolkit, another PTX.
  std::string libdevice = findLibdevice();
  return key.add(libdevice).add(libdevice.empty() ? "" : stamp(libdevice)).add(m).hex();
}

std::optional<std::string> loadPtx(const std::string& key) {
  if (key.empty()) return std::nullopt;
  return readCacheEntry(entryPath(key), key);
}

void storePtx(const std::string& key, const std::string& ptx) {
  if (key.empty()) return;
  fs::path entry = entryPath(key);
  std::error_code ec;
  fs::create_directories(entry.parent_path(), ec);
  writeCacheEntry(entry, key, ptx);
}

}  // namespace td::cuda
