// Reading text a user wrote without trusting its size: numbers that must parse without overflow, and
// values quoted back in error messages without repeating 100,000 characters.
#pragma once
#include <fmt/format.h>
#include <string>
#include <string_view>

namespace td {

// 1 to `maxDigits` decimal digits, no sign: what std::stoi / std::stoull read without throwing.
inline bool isDecimal(std::string_view s, size_t maxDigits) {
  return !s.empty() && s.size() <= maxDigits && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// A value as an error message quotes it: beyond 80 characters, its first 60 and its length.
inline std::string quotable(const std::string& s) {
  return s.size() <= 80 ? s : s.substr(0, 60) + fmt::format("... ({} characters)", s.size());
}

}  // namespace td
