// What of the host's libraries JIT-compiled kernel code may bind to: the C math library and the
// compiler's own helpers that LLVM's x86 back end calls (memcpy for a large copy, __divti3 for a 128-bit
// division, sincosf), nothing else. A kernel calling anything else was refused when it was compiled
// (instrument/external_calls.h); this keeps the executor from ever resolving system, fork or open.
#pragma once
#include <llvm/ADT/StringRef.h>

namespace td::cpu {

bool kernelMayBind(llvm::StringRef name);

}  // namespace td::cpu
