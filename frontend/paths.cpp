#include "frontend/paths.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/input_error.h"

namespace fs = std::filesystem;

namespace td {

std::string executableDir() {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  exe[n] = 0;
  return fs::path(exe).parent_path().string();
}

std::string dataDir(const std::string& name, const char* envVar) {
  if (const char* env = std::getenv(envVar)) return env;
  std::string exeDir = executableDir();
  if (!exeDir.empty()) {
    fs::path dir = exeDir;
    for (fs::path cand : {dir / name, dir / ".." / name, dir / ".." / "share" / "tile-doctor" / name})
      if (fs::is_directory(cand)) return fs::weakly_canonical(cand).string();
  }
  return std::string(TD_SOURCE_DIR) + "/" + name;
}

void requireRegularFile(const std::string& path, const std::string& what, const std::string& reportAs, int line) {
  std::error_code ec;
  auto st = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw InputError(reportAs.empty() ? path : reportAs, line, fmt::format("{} '{}': {}", what, path, ec.message()));
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    throw InputError(reportAs.empty() ? path : reportAs, line,
                     fmt::format("{} '{}' is not a regular file (a FIFO or a device is not read)", what, path));
}

std::string readInputFile(const std::string& path, const std::string& what, uint64_t limit) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one before fstat could refuse it.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError(path, 0, fmt::format("cannot read {}: {}", what, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError(path, 0, fmt::format("{} is not a regular file (a FIFO or a device is not read)", what));
  if (static_cast<uint64_t>(st.st_size) > limit)
    throw InputError(path, 0, fmt::format("{} is {} bytes, over the {} MiB tile-doctor reads", what, st.st_size, limit >> 20));
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  for (;;) {  // the file may grow or shrink while it is read: what is there, up to the limit
    if (got == text.size()) {
      if (text.size() > limit) throw InputError(path, 0, fmt::format("{} grew past the {} MiB tile-doctor reads", what, limit >> 20));
      text.resize(std::min<uint64_t>(text.size() + (1 << 16), limit + 1));
    }
    ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(path, 0, fmt::format("cannot read {}: {}", what, std::strerror(errno)));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  text.resize(got);
  return text;
}

void walkUserFiles(const std::filesystem::path& dir, int maxDepth,
                   const std::function<bool(const std::filesystem::path&)>& each) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    bool folder = it->is_directory(ec);
    if (folder && (name.rfind('.', 0) == 0 || name == "__pycache__" || name == "build" ||
                   (maxDepth >= 0 && it.depth() >= maxDepth))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!folder && it->is_regular_file(ec) && !each(it->path())) return;
  }
}

}  // namespace td
