// CUDA's device printf on the CPU executor. Clang lowers printf(fmt, ...) in device code to
// vprintf(fmt, buffer): the arguments after the format, promoted as for C varargs (float to double, small
// integers to int), packed in order, each aligned to its own size. This formats such a buffer as printf
// would the arguments.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace td::cpu {

// How many bytes from `p` on are the kernel's own memory (0: none): the format, the argument buffer and
// every %s string are read only there, so a kernel cannot print the host's memory (its environment).
using KernelBytesAt = std::function<size_t(const void* p)>;

std::string formatDevicePrintf(const char* format, const char* args, const KernelBytesAt& readable);

}  // namespace td::cpu
