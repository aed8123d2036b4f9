// LLVM declarations of the functions model/hooks.def lists: passes and the CPU executor's lowering call
// hooks through these, so a name or a type can only be written once.
#pragma once
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>

#include "model/hooks.h"

namespace td {

llvm::FunctionType* hookType(llvm::LLVMContext& ctx, Hook h);
// The hook's function in `m`, declared with its catalogue type if absent.
llvm::FunctionCallee hookFunction(llvm::Module& m, Hook h);
// Whether a function or global is tile-doctor's own (a hook, a primitive, a table), not the user's.
inline bool isOwn(const llvm::GlobalValue& g) { return isOwnSymbol(g.getName()); }

}  // namespace td
