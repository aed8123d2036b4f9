// The files of tile-doctor's on-disk caches (clang's output, compiled kernel objects): where they live,
// what invalidates them, and how an entry is written so that concurrent runs share them safely.
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>
#include <string>

namespace llvm {
class Module;
}

namespace td {

// $TILE_DOCTOR_CACHE ("off": no cache), else $XDG_CACHE_HOME/tile-doctor, else ~/.cache/tile-doctor;
// "" when the cache is off or no folder can be made.
std::string cacheDir();

// A file's identity: size and modification time, "" when it cannot be read.
std::string stamp(const std::string& path);

// tile-doctor's own executable (path and stamp): rebuilding it invalidates every entry.
const std::string& toolIdentity();

// A cache key: SHA-256 over parts, each ended by a NUL so that no two part lists collide; hex() names the entry.
class CacheKey {
 public:
  CacheKey();
  ~CacheKey();
  CacheKey& add(std::string_view part);
  CacheKey& add(const llvm::Module& m);  // the module's bitcode
  std::string hex();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Cache entries are sealed: a first line holds the key the entry was stored under and the SHA-256 of the
// content after it. An entry copied over another's name, or damaged, is then never served.
bool writeCacheEntry(const std::filesystem::path& target, const std::string& key, std::string_view content);
// The content stored at `target` under `key`; nullopt when there is none. One whose seal does not match
// (another key's entry, changed content, an unsealed file) is removed, with a note on standard error: the
// caller compiles again.
std::optional<std::string> readCacheEntry(const std::filesystem::path& target, const std::string& key);

}  // namespace td
