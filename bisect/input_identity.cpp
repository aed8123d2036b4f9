#include "bisect/input_identity.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "frontend/cache_files.h"
#include "frontend/paths.h"

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
  walkUserFiles(fs::absolute(input).parent_path(), 3, [&](const fs::path& p) {
    if (isKernelInput(p)) files.push_back(p.string());
    return files.size() < 4000;
  });
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) key.add(f).add(stamp(f));
  return key.hex();
}

}  // namespace td::bisect
