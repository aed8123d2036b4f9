// Bad input from the user (manifest, source, arguments): reported with file:line, exit code 2.
#pragma once
#include <stdexcept>
#include <string>

namespace td {

struct InputError : std::runtime_error {
  InputError(std::string file, int line, const std::string& what)
      : std::runtime_error(what), file(std::move(file)), line(line) {}
  std::string file;
  int line;  // 0 when no line applies
  std::string where() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

}  // namespace td
