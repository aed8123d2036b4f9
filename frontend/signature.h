// Checks the bundle's [[args]] against the kernel's parameters: count, buffer vs scalar, scalar width,
// and (for C++ kernels, from the mangled name) the buffer element type.
#pragma once
#include "frontend/manifest.h"

namespace llvm {
class Function;
}

namespace td {

void checkSignature(const llvm::Function& kernel, const Bundle& bundle);  // throws InputError

}  // namespace td
