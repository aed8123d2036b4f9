// The one way tile-doctor reads its TOML files (bundle manifests, target profiles): parsed from a bounded
// read, strict about types, refusing keys it does not know, and every complaint an InputError naming the
// file and the line of the value at fault.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <toml++/toml.h>

namespace td {

class TomlReader {
 public:
  explicit TomlReader(std::string path) : path_(std::move(path)) {}

  // The file's table: at most `largest` bytes (what `what` is, for the error), a syntax error at its line.
  toml::table parse(const char* what, uint64_t largest) const;
  // The table of the file's text, read already.
  toml::table parseText(const std::string& text) const;

  [[noreturn]] void fail(const toml::node* at, const std::string& why) const;
  [[noreturn]] void fail(int line, const std::string& why) const;
  // Any key of `t` outside `keys` is bad input at its line (`where`: "the manifest", "[launch]", ...).
  void allowOnly(const toml::table& t, const std::set<std::string>& keys, const std::string& where) const;
  // The table `name` of `root` (an empty one when it is absent and not required).
  const toml::table& table(const toml::table& root, const char* name, bool required) const;
  // `key` of `t` as a string / an integer / a number (an integer reads as one); absent and not required:
  // the empty string, `fallback`.
  std::string str(const toml::table& t, const char* key, const std::string& where, bool required) const;
  int64_t integer(const toml::table& t, const char* key, const std::string& where, bool required,
                  int64_t fallback = 0) const;
  double number(const toml::table& t, const char* key, const std::string& where, bool required) const;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace td
