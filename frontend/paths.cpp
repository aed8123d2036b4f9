#include "frontend/paths.h"

#include <filesystem>
#include <unistd.h>

namespace td {

std::string executableDir() {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "";
  exe[n] = 0;
  return std::filesystem::path(exe).parent_path().string();
}

}  // namespace td
