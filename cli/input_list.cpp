#include "cli/input_list.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fnmatch.h>
#include <sstream>
#include <glob.h>
#include <regex>

#include "frontend/input_error.h"
#include "frontend/paths.h"

namespace td::cli {

namespace {

namespace fs = std::filesystem;

bool isManifest(const fs::path& p) {
  if (p.extension() != ".toml") return false;
  std::string text;
  try {
    text = readInputFile(p.string(), "the manifest", 16u << 20);
  } catch (const InputError&) {
    return true;  // a .toml that cannot be read is checked, so that the check says why, not skipped unseen
  }
  std::istringstream in(text);
  static const std::regex kernelTable(R"(^\s*\[kernel\]\s*(#.*)?$)");
  for (std::string line; std::getline(in, line);)
    if (line.size() <= 4096 && std::regex_match(line, kernelTable)) return true;  // std::regex recurses per character
  return false;
}


std::vector<std::string> matchPattern(const std::string& pattern) {
  std::vector<std::string> out;
  size_t star2 = pattern.find("**");
  if (star2 == std::string::npos) {
    glob_t g{};
    if (glob(pattern.c_str(), GLOB_TILDE | GLOB_BRACE, nullptr, &g) == 0)
      for (size_t i = 0; i < g.gl_pathc; ++i)
        if (fs::is_regular_file(g.gl_pathv[i])) out.push_back(g.gl_pathv[i]);
    globfree(&g);
    return out;
  }
  // ** : the folder before the first wildcard, walked; paths matched whole (a * may cross folders).
  size_t slash = pattern.find_last_of('/', pattern.find_first_of("*?[") );
  std::string root = slash == std::string::npos ? "." : pattern.substr(0, slash);
  walkUserFiles(root.empty() ? "/" : root, -1, [&](const fs::path& p) {
    std::string s = slash == std::string::npos ? fs::relative(p, ".").generic_string() : p.generic_string();
    std::string collapsed = pattern;
    for (size_t at; (at = collapsed.find("**/")) != std::string::npos;) collapsed.replace(at, 3, "*");
    if (fnmatch(pattern.c_str(), s.c_str(), 0) == 0 || fnmatch(collapsed.c_str(), s.c_str(), 0) == 0) out.push_back(s);
    return true;
  });
  return out;
}

}  // namespace

std::vector<std::string> expandInputs(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      size_t before = out.size();
      walkUserFiles(a, -1, [&](const fs::path& p) {
        if (isManifest(p)) out.push_back(p.string());
        return true;
      });
      if (out.size() == before) throw InputError(a, 0, "the folder holds no bundle manifest (a .toml with a [kernel] table)");
    } else if (fs::exists(fs::symlink_status(a, ec))) {
      out.push_back(a);  // a file (or a fifo, a device: the manifest reader says what is wrong with it)
    } else if (a.find_first_of("*?[") != std::string::npos) {
      std::vector<std::string> m = matchPattern(a);
      if (m.empty()) throw InputError(a, 0, "the pattern matches no file");
      out.insert(out.end(), m.begin(), m.end());
    } else {
      throw InputError(a, 0, "no such bundle, script, folder or pattern");
    }
  }
  for (std::string& p : out) p = fs::path(p).lexically_normal().string();
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> shardOf(const std::vector<std::string>& inputs, const std::string& shard, int* skipped) {
  static const std::regex form(R"((\d+)/(\d+))");
  std::smatch m;
  if (!std::regex_match(shard, m, form)) throw InputError("--shard", 0, fmt::format("'{}' is not I/N (for example 2/4)", shard));
  long i = std::stol(m[1]), n = std::stol(m[2]);
  if (n < 1 || i < 1 || i > n) throw InputError("--shard", 0, fmt::format("'{}': I must be 1 to N", shard));
  std::vector<std::string> mine;
  for (size_t k = 0; k < inputs.size(); ++k)
    if (static_cast<long>(k % n) == i - 1) mine.push_back(inputs[k]);
  *skipped = static_cast<int>(inputs.size() - mine.size());
  return mine;
}

}  // namespace td::cli
