#include "frontend/compile_cache.h"

#include "frontend/cache_files.h"

#include <cstdlib>
#include <functional>
#include <filesystem>
#include <optional>
#include <fmt/format.h>
#include <fstream>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace td {

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string cacheKey(const std::string& path, const CompileOptions& opts, const std::string& text) {
  CacheKey key;
  key.add(toolIdentity());
  for (const std::string& a : clangArguments(path, opts)) key.add(a);
  key.add(text.empty() ? readFile(path) : text);
  return key.hex();
}

// The entry's bitcode, when every file it was compiled from is as it was.
// Both files are sealed with the entry's key (its name): one copied from another entry is not served.
std::unique_ptr<llvm::Module> load(llvm::LLVMContext& ctx, const fs::path& base) {
  std::string key = base.filename().string();
  std::optional<std::string> deps = readCacheEntry(base.string() + ".deps", key);
  if (!deps) return nullptr;
  std::istringstream lines(*deps);
  std::string line;
  while (std::getline(lines, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos || stamp(line.substr(tab + 1)) != line.substr(0, tab)) return nullptr;
  }
  std::optional<std::string> bitcode = readCacheEntry(base.string() + ".bc", key);
  if (!bitcode) return nullptr;
  auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(*bitcode, base.string()), ctx);
  if (!module) {
    llvm::consumeError(module.takeError());
    return nullptr;
  }
  return std::move(*module);
}

void store(const fs::path& base, const std::string& bitcode, const std::vector<std::string>& filesRead) {
  std::string deps;
  for (const std::string& f : filesRead) {
    std::string s = stamp(f);
    if (!s.empty()) deps += s + "\t" + f + "\n";  // files only in tile-doctor's memory come with the binary
  }
  // The bitcode first: an entry counts once its .deps is there.
  std::string key = base.filename().string();
  if (writeCacheEntry(base.string() + ".bc", key, bitcode)) writeCacheEntry(base.string() + ".deps", key, deps);
}

// Compiles, stores clang's bitcode as it came and loads the entry into `ctx`: the first run builds the
// very module later runs load (the same type names, declaration order and identifier), so the object
// cache, which keys on the module's bitcode, hits from the second run on.
std::unique_ptr<llvm::Module> compileStoreAndLoad(llvm::LLVMContext& ctx, const fs::path& base, const std::string& path,
                                                  const CompileOptions& opts, const std::string& text) {
  std::vector<std::string> filesRead;
  std::string bitcode = compileCudaToBitcode(path, opts, text, &filesRead);
  store(base, bitcode, filesRead);
  if (auto m = load(ctx, base)) return m;
  return moduleFromBitcode(ctx, bitcode, path);  // a cache that cannot be written only costs time
}

// compileCuda through the cache: `text` the source when it is not on disk (empty: read `path`).
std::unique_ptr<llvm::Module> throughCache(llvm::LLVMContext& ctx, const std::string& path, const CompileOptions& opts,
                                           const std::string& text) {
  std::string dir = cacheDir();
  if (dir.empty()) return compileCuda(ctx, path, opts, text);
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "modules", ec);
  fs::path base = fs::path(dir) / "modules" / cacheKey(path, opts, text);
  if (auto m = load(ctx, base)) return m;
  return compileStoreAndLoad(ctx, base, path, opts, text);
}

}  // namespace

std::unique_ptr<llvm::Module> compileCudaCached(llvm::LLVMContext& ctx, const std::string& path,
                                                const CompileOptions& opts) {
  if (!fs::exists(path)) return compileCuda(ctx, path, opts);
  return throughCache(ctx, path, opts, {});
}

std::unique_ptr<llvm::Module> compileEmbeddedCached(llvm::LLVMContext& ctx, const std::string& name,
                                                    const std::string& text, const CompileOptions& opts) {
  return throughCache(ctx, name, opts, text);
}

}  // namespace td
