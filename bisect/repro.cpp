#include "bisect/repro.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <sys/stat.h>
#include <toml++/toml.h>

#include "frontend/input_error.h"
#include "frontend/manifest.h"

namespace td::bisect {

namespace {

namespace fs = std::filesystem;

std::string absoluteFrom(const fs::path& dir, const std::string& p) {
  fs::path path(p);
  return path.is_absolute() ? p : (dir / path).lexically_normal().string();
}

void absolutise(toml::node* node, const fs::path& dir) {
  if (auto* s = node ? node->as_string() : nullptr) **s = absoluteFrom(dir, s->get());
}

std::string shellQuoted(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

void writeBundleRepro(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& overrides,
                      const std::string& path, const std::string& comment) {
  toml::table root;
  try {
    root = toml::parse_file(manifest);
  } catch (const toml::parse_error& e) {
    throw InputError(manifest, static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
  fs::path dir = fs::absolute(manifest).parent_path();
  if (toml::table* kernel = root["kernel"].as_table()) {
    for (const char* key : {"source", "ir", "line_map"}) absolutise(kernel->get(key), dir);
    if (toml::array* inc = (*kernel)["include"].as_array())
      for (toml::node& n : *inc) absolutise(&n, dir);
  }
  static const std::regex fileInit(R"(^(\s*file\(\s*")([^"]+)("\s*\)\s*)$)");
  if (toml::array* args = root["args"].as_array())
    for (toml::node& a : *args)
      if (toml::table* t = a.as_table())
        if (toml::value<std::string>* init = (*t)["init"].as_string()) {
          std::smatch m;
          std::string text = init->get();
          if (std::regex_match(text, m, fileInit)) **init = m[1].str() + absoluteFrom(dir, m[2]) + m[3].str();
        }
  toml::table* p = root["params"].as_table();
  if (!p) p = root.insert_or_assign("params", toml::table{}).first->second.as_table();
  for (const auto& [name, value] : loadBundle(manifest, overrides).params) p->insert_or_assign(name, value);
  std::ofstream out(path);
  out << "# " << comment << "\n# from " << fs::absolute(manifest).string() << " (paths made absolute)\n"
      << toml::toml_formatter(root) << "\n";
  out.close();
  if (!out) throw InputError(path, 0, "cannot write the repro manifest");
}

void writeScriptRepro(const std::vector<std::string>& command, const std::string& path) {
  std::ofstream out(path);
  out << "#!/bin/sh\n# the failing shape of a tile-doctor bisect-shape search\nexec";
  for (const std::string& a : command) out << " " << shellQuoted(a);
  out << "\n";
  out.close();
  if (!out) throw InputError(path, 0, "cannot write the repro script");
  ::chmod(path.c_str(), 0755);
}

std::string reproPath(const std::string& out, bool script) {
  const char* ext = script ? ".repro.sh" : ".repro.toml";
  if (out.empty()) return std::string("bisect") + ext;
  fs::path p(out);
  return (p.parent_path() / (p.stem().string() + ext)).string();
}

}  // namespace td::bisect
