// The SDK's one-statement half/bfloat16 helpers (the catalogue's HalfScalar family) as plain LLVM IR for
// the CPU executor: each half widened to double, the operation done there and rounded once to the half
// type (exact for add/sub/mul; an fma's sum of a 22-bit product and a half is exact in double wherever
// the result is finite, so one rounding, as the GPU does).
#pragma once
#include <llvm/IR/IRBuilder.h>

#include "instrument/ptx_catalogue.h"

namespace td::cpu {

// The value replacing `call` (an inline-asm call the catalogue parsed as HalfScalar). Operands are
// integers (h, r constraints) or floats (f, d), the result likewise; $1 is the call's first argument.
llvm::Value* lowerHalfScalar(llvm::IRBuilder<>& b, llvm::CallInst& call, const PtxStatement& st);

}  // namespace td::cpu
