// The memory accesses of a function, as the checking passes see them: loads, stores, atomics, memory
// intrinsics and the memory effects of inline-PTX catalogue statements (cp.async, ldmatrix, stmatrix).
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instruction.h>
#include <functional>
#include <vector>

#include "instrument/pointer_roots.h"
#include "model/site_table.h"

namespace td {

struct Access {
  llvm::Instruction* inst;
  llvm::Value* ptr;
  llvm::Value* size;  // i32
  unsigned align;
  SiteKind kind;
  unsigned width;     // bytes, 0 when only known at run time
  bool atomicRead = false;  // a Load that is atomic (LLVM's load atomic, ld.relaxed/acquire written as PTX)
};

// Appends every access of `f` to `out`, in instruction order.
void collectAccesses(llvm::Function& f, std::vector<Access>& out);

// The pointer an integer operand of inline PTX was made from (ptrtoint, through casts, adds and ors: a
// cvta.to.shared value plus byte offsets), or nullptr. Reads the IR only.
llvm::Value* pointerOperandOf(llvm::Value* v);

// Calls `visit` for every access of the user's functions in `m` (not tile-doctor's own __td_*), with
// the root its pointer derives from. Accesses are collected per function before the first visit, so
// `visit` may insert code.
void forEachUserAccess(llvm::Module& m, const std::function<void(Access&, const PointerRoot&)>& visit);

// Gives the hook calls a builder places before `at` a location (the verifier wants one on inlinable
// calls in functions with debug info): `at`'s own, else line 0 of its function.
void setHookLocation(llvm::IRBuilderBase& b, llvm::Instruction* at);

// `p` as the generic pointer (address space 0) every hook takes: a shared array LLVM split into scalar
// globals, constant memory or a private array reaches a hook through this cast.
llvm::Value* genericPointer(llvm::IRBuilderBase& b, llvm::Value* p);

// A warp-collective catalogue statement (ldmatrix, stmatrix, mma.sync): one lane alone cannot skip it.
bool isWarpCollectiveAsm(llvm::Instruction* i);

}  // namespace td
