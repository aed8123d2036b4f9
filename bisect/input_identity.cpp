#include "bisect/input_identity.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "frontend/cache_files.h"

namespace td::bisect {

namespace {

// Files a kernel or script reads; reports, logs and caches written beside it (a --out in the same folder)
// do not change what a probe does.
bool isKernelInput(const std::filesystem::path& p) {
  static const std::vector<std::string> kinds = {".cu", ".cuh", ".h", ".hpp", ".hip", ".cpp", ".cc", ".c", ".inc",
                                                 ".ll", ".bc", ".toml", ".py", ".npy", ".lines", ".maca"};
  if (p.filename().string().find(".repro.") != std::string::npos) return false;  // bisect-shape's own repro
  return std::find(kinds.begin(), kinds.end(), p.extension().string()) != kinds.end();
}

}  // namespace

std::string inputIdentity(const std::string& input) {
  namespace fs = std::filesystem;
  CacheKey key;
  std::ifstream in(input, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  key.add(fs::absolute(input).lexically_normal().string()).add(bytes.str());
  std::vector<std::string> files;
  std::error_code ec;
  fs::path dir = fs::absolute(input).parent_path();
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && files.size() < 4000; it.increment(ec)) {
    if (it.depth() >= 4) {
      it.disable_recursion_pending();
      continue;
    }
    std::string name = it->path().filename().string();
    if (it->is_directory(ec) && (name == "__pycache__" || name.rfind('.', 0) == 0)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && isKernelInput(it->path())) files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) key.add(f).add(stamp(f));
  return key.hex();
}

}  // namespace td::bisect
