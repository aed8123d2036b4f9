// CUDA's device printf on the CPU executor. Clang lowers printf(fmt, ...) in device code to
// vprintf(fmt, buffer): the arguments after the format, promoted as for C varargs (float to double, small
// integers to int), packed in order, each aligned to its own size. This formats such a buffer as printf
// would the arguments.
#pragma once
#include <string>

namespace td::cpu {

std::string formatDevicePrintf(const char* format, const char* args);

}  // namespace td::cpu
