#include "runtime/cpu/object_cache.h"

#include <filesystem>
#include <optional>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "frontend/cache_files.h"

namespace fs = std::filesystem;

namespace td::cpu {

namespace {

constexpr const char* kKeyPrefix = "td-object:";

fs::path entryPath(const std::string& key) { return fs::path(cacheDir()) / "objects" / (key + ".o"); }

}  // namespace

std::string objectKey(const llvm::Module& m, const std::string& cpu, const std::string& features) {
  if (cacheDir().empty()) return "";
  const char* extra = std::getenv("TILE_DOCTOR_EXTRA_PASSES");
  return CacheKey()
      .add(toolIdentity())
      .add(cpu)
      .add(features)
      .add(extra ? extra : "")
      .add(m)
      .hex();
}

std::unique_ptr<llvm::MemoryBuffer> KernelObjectCache::load(const std::string& key) {
  if (key.empty()) return nullptr;
  std::optional<std::string> object = readCacheEntry(entryPath(key), key);
  return object ? llvm::MemoryBuffer::getMemBufferCopy(*object, entryPath(key).string()) : nullptr;
}

void KernelObjectCache::notifyObjectCompiled(const llvm::Module* m, llvm::MemoryBufferRef object) {
  llvm::StringRef id = m->getModuleIdentifier();
  if (!id.starts_with(kKeyPrefix)) return;
  std::string key = id.drop_front(std::strlen(kKeyPrefix)).str();
  fs::path entry = entryPath(key);
  std::error_code ec;
  fs::create_directories(entry.parent_path(), ec);
  // a cache that cannot be written only costs time
  writeCacheEntry(entry, key, std::string_view(object.getBufferStart(), object.getBufferSize()));
}

std::unique_ptr<llvm::MemoryBuffer> KernelObjectCache::getObject(const llvm::Module*) {
  return nullptr;  // hits are found before the module is optimised (CpuJit::add), not here
}

std::string objectCacheIdentifier(const std::string& key) { return kKeyPrefix + key; }

}  // namespace td::cpu
