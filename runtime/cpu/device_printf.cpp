#include "runtime/cpu/device_printf.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

namespace td::cpu {

namespace {

// Reads the next argument of `size` bytes, aligned to its size; 0 past the `limit` bytes of the buffer.
template <class T>
T next(const char*& at, const char* base, size_t limit) {
  size_t off = static_cast<size_t>(at - base);
  off = (off + sizeof(T) - 1) / sizeof(T) * sizeof(T);
  T v{};
  if (off <= limit && sizeof(T) <= limit - off) std::memcpy(&v, base + off, sizeof(T));
  at = base + off + sizeof(T);
  return v;
}

template <class T>
void append(std::string& out, const std::string& spec, T v) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), v);
  if (n <= 0) return;
  std::string piece(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(piece.data(), piece.size(), spec.c_str(), v);
  out.append(piece.data(), static_cast<size_t>(n));
}

}  // namespace

std::string formatDevicePrintf(const char* rawFormat, const char* args, const KernelBytesAt& readable) {
  size_t formatBytes = rawFormat ? readable(rawFormat) : 0;
  if (!formatBytes) return fmt::format("(printf with a format at {}, outside the kernel's memory)\n",
                                       static_cast<const void*>(rawFormat));
  const std::string text(rawFormat, strnlen(rawFormat, formatBytes));
  const char* format = text.c_str();
  const size_t argBytes = args ? readable(args) : 0;
  std::string out;
  const char* at = args;
  for (const char* p = format; *p; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      ++p;
      continue;
    }
    // %[flags][width][.precision][length]conversion; a '*' width or precision takes an int argument.
    std::string spec = "%";
    const char* q = p + 1;
    while (*q && std::strchr("-+ #0", *q)) spec += *q++;
    for (int part = 0; part < 2; ++part) {
      if (part == 1) {
        if (*q != '.') break;
        spec += *q++;
      }
      if (*q == '*') {
        spec += std::to_string(args ? next<int32_t>(at, args, argBytes) : 0);
        ++q;
      }
      while (*q >= '0' && *q <= '9') spec += *q++;
    }
    int longs = 0;
    bool sizeT = false;
    while (*q && std::strchr("hlLqjzt", *q)) {
      if (*q == 'l' || *q == 'q' || *q == 'j' || *q == 'L') ++longs;
      if (*q == 'z' || *q == 't') sizeT = true;
      ++q;
    }
    char conv = *q;
    if (!conv) break;
    p = q;
    bool wide = longs > 0 || sizeT;
    if (!args) {
      out += "(no arguments)";
      continue;
    }
    switch (conv) {
      case 'd': case 'i':
        if (wide) append(out, spec + "lld", static_cast<long long>(next<int64_t>(at, args, argBytes)));
        else append(out, spec + "d", next<int32_t>(at, args, argBytes));
        break;
      case 'u': case 'x': case 'X': case 'o':
        if (wide) append(out, spec + "ll" + conv, static_cast<unsigned long long>(next<uint64_t>(at, args, argBytes)));
        else append(out, spec + conv, next<uint32_t>(at, args, argBytes));
        break;
      case 'c': append(out, spec + "c", next<int32_t>(at, args, argBytes)); break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        append(out, spec + conv, next<double>(at, args, argBytes));
        break;
      case 'p': append(out, spec + "p", reinterpret_cast<void*>(next<uint64_t>(at, args, argBytes))); break;
      case 's': {
        const char* s = reinterpret_cast<const char*>(next<uint64_t>(at, args, argBytes));
        size_t n = s ? readable(s) : 0;
        if (s && !n) out += fmt::format("(a string at {}, outside the kernel's memory)", static_cast<const void*>(s));
        else append(out, spec + "s", s ? std::string(s, strnlen(s, n)).c_str() : "(null)");
        break;
      }
      default: out += spec + conv;  // as written: CUDA prints an unknown conversion unchanged
    }
  }
  return out;
}

}  // namespace td::cpu
