#include "frontend/read_roots.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>

#include "frontend/cache_files.h"
#include "frontend/input_error.h"

namespace fs = std::filesystem;

namespace td {

namespace {

std::vector<std::string>& cliRoots() {
  static std::vector<std::string> roots;
  return roots;
}

bool isFolder(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

std::string resolvedPath(const std::string& p) {
  std::error_code ec;
  fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::absolute(p).lexically_normal().string() : r.string();
}

bool insideAnyRoot(const std::string& path, const std::vector<std::string>& resolvedRoots) {
  fs::path p = resolvedPath(path);
  for (const std::string& root : resolvedRoots) {
    fs::path rel = p.lexically_relative(root);
    if (!rel.empty() && *rel.begin() != "..") return true;
  }
  return false;
}

void addIncludeRoot(const std::string& dir) {
  if (!isFolder(dir)) throw InputError("--include-root", 0, fmt::format("'{}' is not a folder", dir));
  cliRoots().push_back(resolvedPath(dir));
}

std::vector<std::string> includeRoots() {
  std::vector<std::string> roots = cliRoots();
  if (const char* env = std::getenv("TILE_DOCTOR_INCLUDE_ROOTS")) {
    std::string list = env;
    for (size_t start = 0; start <= list.size();) {
      size_t colon = list.find(':', start);
      std::string dir = list.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!dir.empty() && isFolder(dir)) roots.push_back(resolvedPath(dir));
      start = colon == std::string::npos ? list.size() + 1 : colon + 1;
    }
  }
  return roots;
}

std::string tileLangTreeOf(const std::string& dir) {
  fs::path d = resolvedPath(dir);
  auto isTree = [](const fs::path& root) { return isFolder(root / "src" / "tl_templates"); };
  if (d.filename() == "src" && isTree(d.parent_path())) return d.parent_path().string();
  fs::path up = d.parent_path().parent_path().parent_path();  // <tree>/3rdparty/cutlass/include
  if (d.filename() == "include" && d.parent_path().filename() == "cutlass" &&
      d.parent_path().parent_path().filename() == "3rdparty" && isTree(up))
    return up.string();
  return {};
}

std::optional<std::string> outsideTheBundle(const std::string& path, const std::string& bundleDir, const std::string& key) {
  std::vector<std::string> roots = includeRoots();
  roots.push_back(resolvedPath(bundleDir));
  roots.push_back(resolvedPath((fs::path(cacheDir()) / "sources").string()));  // what a script's capture kept
  if (insideAnyRoot(path, roots)) return std::nullopt;
  if (key == "kernel.include" && !tileLangTreeOf(path).empty()) return std::nullopt;
  return fmt::format("{} '{}' lies outside the bundle's folder ({}): a build reads only the bundle's own files{}, and "
                     "folders named with --include-root DIR (or TILE_DOCTOR_INCLUDE_ROOTS)",
                     key, path, resolvedPath(bundleDir), key == "kernel.include" ? ", an installed TileLang's" : "");
}

}  // namespace td
