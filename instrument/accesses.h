// The memory accesses of a function, as the checking passes see them: loads, stores, atomics, memory
// intrinsics and the memory effects of inline-PTX catalogue statements (cp.async, ldmatrix, stmatrix).
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <vector>

#include "instrument/site_table.h"

namespace td {

struct Access {
  llvm::Instruction* inst;
  llvm::Value* ptr;
  llvm::Value* size;  // i32
  unsigned align;
  SiteKind kind;
  unsigned width;     // bytes, 0 when only known at run time
};

// Appends every access of `f` to `out`, in instruction order.
void collectAccesses(llvm::Function& f, std::vector<Access>& out);

// A warp-collective catalogue statement (ldmatrix, stmatrix, mma.sync): one lane alone cannot skip it.
bool isWarpCollectiveAsm(llvm::Instruction* i);

}  // namespace td
