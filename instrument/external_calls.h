// A kernel may call only what a GPU has: its own functions, LLVM intrinsics, CUDA's libdevice (__nv_*)
// and the device runtime's printf (vprintf), assert (__assertfail), malloc and free. A call to anything
// else fails to link for the GPU too (nvlink: undefined reference), and on the CPU executor it must never
// reach a host library (system, fork, open, syscall): it is bad input naming the function and the line.
#pragma once
#include <string_view>

#include "model/site_table.h"

namespace llvm {
class Module;
class Value;
}

namespace td {

void refuseUndefinedFunctions(const llvm::Module& m);

// Where a value (a function, a global) is first used by an instruction, through constant expressions (a
// field of a global): the place a message about it names. Empty when no instruction uses it.
SourceLoc firstUseLocation(const llvm::Value& v);

// CUDA's device runtime as device code calls it: vprintf, __assertfail, malloc, free (each executor
// provides its own).
bool isCudaDeviceRuntime(std::string_view name);

}  // namespace td
