#include "frontend/toml_reader.h"

#include <fmt/format.h>

#include "frontend/input_error.h"
#include "frontend/paths.h"

namespace td {

toml::table TomlReader::parse(const char* what, uint64_t largest) const {
  return parseText(readInputFile(path_, what, largest));
}

toml::table TomlReader::parseText(const std::string& text) const {
  try {
    return toml::parse(text, path_);
  } catch (const toml::parse_error& e) {
    throw InputError(path_, static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
}

void TomlReader::fail(const toml::node* at, const std::string& why) const {
  throw InputError(path_, at ? static_cast<int>(at->source().begin.line) : 0, why);
}

void TomlReader::fail(int line, const std::string& why) const { throw InputError(path_, line, why); }

void TomlReader::allowOnly(const toml::table& t, const std::set<std::string>& keys, const std::string& where) const {
  for (auto&& [k, v] : t) {
    if (!keys.count(std::string(k.str()))) {
      std::string known;
      for (auto& s : keys) known += (known.empty() ? "" : ", ") + s;
      fail(&v, fmt::format("unknown key '{}' in {} (known keys: {})", k.str(), where, known));
    }
  }
}

const toml::table& TomlReader::table(const toml::table& root, const char* name, bool required) const {
  static const toml::table empty;
  const toml::node* n = root.get(name);
  if (!n) {
    if (required) fail(1, fmt::format("missing [{}] section", name));
    return empty;
  }
  if (!n->is_table()) fail(n, fmt::format("'{}' must be a table ([{}])", name, name));
  return *n->as_table();
}

std::string TomlReader::str(const toml::table& t, const char* key, const std::string& where, bool required) const {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) fail(t.source().begin.line, fmt::format("{} needs '{}'", where, key));
    return {};
  }
  if (!n->is_string()) fail(n, fmt::format("'{}' in {} must be a string", key, where));
  return std::string(n->as_string()->get());
}

int64_t TomlReader::integer(const toml::table& t, const char* key, const std::string& where, bool required,
                            int64_t fallback) const {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) fail(t.source().begin.line, fmt::format("{} needs '{}'", where, key));
    return fallback;
  }
  if (!n->is_integer()) fail(n, fmt::format("'{}' in {} must be an integer", key, where));
  return n->as_integer()->get();
}

double TomlReader::number(const toml::table& t, const char* key, const std::string& where, bool required) const {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) fail(t.source().begin.line, fmt::format("{} needs '{}'", where, key));
    return 0;
  }
  if (!n->is_number()) fail(n, fmt::format("'{}' in {} must be a number", key, where));
  return n->value<double>().value_or(0);
}

}  // namespace td
