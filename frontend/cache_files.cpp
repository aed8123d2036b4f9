#include "frontend/cache_files.h"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SHA256.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/paths.h"
#include "frontend/staged_file.h"

namespace fs = std::filesystem;

namespace td {

// A file's identity for the cache: size and modification time, "" when it cannot be read.
std::string stamp(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "";
  return fmt::format("{} {}.{}", st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

// Rebuilding tile-doctor (its passes, its runtime, its clang) invalidates every entry.
const std::string& toolIdentity() {
  static const std::string id = [] {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("unknown") : exe.string() + " " + stamp(exe.string());
  }();
  return id;
}

struct CacheKey::State {
  llvm::SHA256 sha;
};

CacheKey::CacheKey() : state_(std::make_unique<State>()) {}
CacheKey::~CacheKey() = default;

CacheKey& CacheKey::add(std::string_view part) {
  state_->sha.update(llvm::StringRef(part.data(), part.size()));
  state_->sha.update(llvm::StringRef("\0", 1));
  return *this;
}

CacheKey& CacheKey::add(const llvm::Module& m) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::BitcodeWriter writer(bitcode);
  writer.writeModule(m);
  writer.writeSymtab();
  writer.writeStrtab();
  return add(std::string_view(bitcode.data(), bitcode.size()));
}

std::string CacheKey::hex() {
  std::string out;
  for (uint8_t b : state_->sha.final()) out += fmt::format("{:02x}", b);
  return out;
}

namespace {

constexpr std::string_view kSealTag = "tile-doctor-cache-entry/1 ";
constexpr uint64_t kLargestEntry = 1ull << 30;

std::string digestOf(std::string_view content) { return CacheKey().add(content).hex(); }

}  // namespace

bool writeCacheEntry(const fs::path& target, const std::string& key, std::string_view content) {
  try {  // concurrent runs share the folder: an entry appears whole or not at all
    StagedFile staged(target.string(), "the cache entry");
    staged.out() << kSealTag << key << ' ' << digestOf(content) << '\n';
    staged.out().write(content.data(), static_cast<std::streamsize>(content.size()));
    staged.commit();
    return true;
  } catch (const std::exception&) {
    return false;  // a cache that cannot be written only costs time
  }
}

std::optional<std::string> readCacheEntry(const fs::path& target, const std::string& key) {
  std::error_code ec;
  if (!fs::exists(target, ec)) return std::nullopt;
  std::string text;
  try {
    text = readInputFile(target.string(), "a cache entry", kLargestEntry);
  } catch (const std::exception&) {
    text.clear();  // unreadable, not a regular file, too large: as good as damaged
  }
  size_t eol = text.find('\n');
  std::string expected = std::string(kSealTag) + key + ' ';
  if (eol != std::string::npos && text.compare(0, expected.size(), expected) == 0 &&
      std::string_view(text).substr(expected.size(), eol - expected.size()) == digestOf(std::string_view(text).substr(eol + 1)))
    return text.substr(eol + 1);
  fs::remove(target, ec);
  std::fprintf(stderr, "tile-doctor: note: the cache entry %s did not match its key or its content (copied over or "
                       "damaged): removed, and compiled again\n", target.c_str());
  return std::nullopt;
}

std::string cacheDir() {
  fs::path dir;
  if (const char* env = std::getenv("TILE_DOCTOR_CACHE"); env && *env) {
    if (std::string(env) == "off") return "";
    dir = env;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    dir = fs::path(xdg) / "tile-doctor";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = fs::path(home) / ".cache" / "tile-doctor";
  } else {
    return "";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  return ec ? "" : dir.string();
}

}  // namespace td
