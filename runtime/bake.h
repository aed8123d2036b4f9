// Bakes a launch's fixed data into the module before it is compiled: the control block (__td_ctl:
// buffer bases and sizes, channel) becomes a constant, so every bounds check reads immediates instead
// of memory the kernel's stores might alias.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace td {

// Replaces global `name`'s initializer with `bytes` (laid out as its type) and marks it constant. The
// non-zero address words at the byte offsets of `addressSymbols` become references to those external
// symbols, which the JIT binds to this run's addresses: the module then holds nothing of the run's
// memory layout, and its compiled code can be kept (object_cache.h).
// `symbolAlignment`: what every such address is known to be aligned to (the CPU's mappings are pages;
// cuMemAlloc promises 256 bytes).
void bakeGlobal(llvm::Module& m, const char* name, const void* bytes, size_t size,
                const std::map<uint64_t, std::string>& addressSymbols = {}, uint64_t symbolAlignment = 4096);

// Replaces the kernel's uses of its parameters with this launch's values: `values[i]` points at the
// bytes of parameter i (for a buffer, its device address). Parameters stay in the signature. A pointer
// parameter named in `pointerSymbols` whose symbol bakeGlobal made becomes that symbol instead of its value
// (the same address, so the checks' arithmetic on it folds as before, and nothing of the run is written).
void bakeArguments(llvm::Module& m, const std::string& kernel, const std::vector<const void*>& values,
                   const std::map<unsigned, std::string>& pointerSymbols = {});

}  // namespace td
