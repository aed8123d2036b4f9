#include "frontend/compile_cache.h"

#include <cstdlib>
#include <functional>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace td {

namespace {

// A file's identity for the cache: size and modification time, "" when it cannot be read.
std::string stamp(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "";
  return fmt::format("{} {}.{}", st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
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

std::string cacheKey(const std::string& path, const CompileOptions& opts) {
  llvm::SHA256 h;
  auto add = [&](const std::string& s) {
    h.update(s);
    h.update(llvm::StringRef("\0", 1));
  };
  add(toolIdentity());
  for (const std::string& a : clangArguments(path, opts)) add(a);
  add(readFile(path));
  std::string hex;
  for (uint8_t b : h.final()) hex += fmt::format("{:02x}", b);
  return hex;
}

// The entry's bitcode, when every file it was compiled from is as it was.
std::unique_ptr<llvm::Module> load(llvm::LLVMContext& ctx, const fs::path& base) {
  std::ifstream deps(base.string() + ".deps");
  if (!deps) return nullptr;
  std::string line;
  while (std::getline(deps, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos || stamp(line.substr(tab + 1)) != line.substr(0, tab)) return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFile(base.string() + ".bc");
  if (!buffer) return nullptr;
  auto module = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), ctx);
  if (!module) {
    llvm::consumeError(module.takeError());
    return nullptr;
  }
  return std::move(*module);
}

// Writes `name` under a temporary name and renames it into place.
bool writeAtomically(const fs::path& target, const std::function<bool(llvm::raw_fd_ostream&)>& write) {
  std::string tmp = fmt::format("{}.{}.tmp", target.string(), getpid());
  std::error_code ec;
  {
    llvm::raw_fd_ostream out(tmp, ec);
    if (ec || !write(out)) return false;
    out.close();
    if (out.has_error()) {
      out.clear_error();
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

void store(const fs::path& base, const llvm::Module& m, const std::vector<std::string>& filesRead) {
  std::string deps;
  for (const std::string& f : filesRead) {
    std::string s = stamp(f);
    if (!s.empty()) deps += s + "\t" + f + "\n";  // files only in tile-doctor's memory come with the binary
  }
  // The bitcode first: an entry counts once its .deps is there.
  if (!writeAtomically(base.string() + ".bc", [&](llvm::raw_fd_ostream& out) {
        llvm::WriteBitcodeToFile(m, out);
        return true;
      }))
    return;
  writeAtomically(base.string() + ".deps", [&](llvm::raw_fd_ostream& out) {
    out << deps;
    return true;
  });
}

}  // namespace

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
  fs::create_directories(dir / "modules", ec);
  return ec ? "" : dir.string();
}

std::unique_ptr<llvm::Module> compileCudaCached(llvm::LLVMContext& ctx, const std::string& path,
                                                const CompileOptions& opts) {
  std::string dir = cacheDir();
  if (dir.empty() || !fs::exists(path)) return compileCuda(ctx, path, opts);
  fs::path base = fs::path(dir) / "modules" / cacheKey(path, opts);
  if (auto m = load(ctx, base)) return m;
  std::vector<std::string> filesRead;
  std::unique_ptr<llvm::Module> m = compileCuda(ctx, path, opts, {}, &filesRead);
  store(base, *m, filesRead);  // a cache that cannot be written only costs time
  return m;
}

}  // namespace td
