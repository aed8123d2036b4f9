// How much private (local) memory a thread of the kernel needs: the stack arrays the optimised kernel
// still keeps in memory (a local array indexed at run time stays there; registers hold the rest), over
// the entry and every function of the module it may call. A lower bound of what the target's compiler
// allocates (spills come on top); the launch family compares it with the target's per-thread limit.
#pragma once
#include <cstdint>

#include "model/site_table.h"

namespace llvm {
class Function;
}

namespace td {

struct PrivateMemory {
  uint64_t bytes = 0;
  SourceLoc largest;  // where the largest array is used first (empty file when unknown)
  uint64_t largestBytes = 0;
  bool dynamic = false;  // an alloca of a size known only at run time (not counted)
};

PrivateMemory privateMemoryOf(const llvm::Function& kernel);

}  // namespace td
