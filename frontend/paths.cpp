#include "frontend/paths.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
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
