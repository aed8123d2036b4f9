#include "frontend/paths.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

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

}  // namespace td
