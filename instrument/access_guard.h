// Skipping an access a check refused: the bounds family's guards and containment's (instrument/
// containment_pass) are the same two shapes.
#pragma once

namespace llvm {
class GlobalVariable;
class Instruction;
class Module;
class Value;
}  // namespace llvm

namespace td {

// Where skipped plain loads and stores go (the device runtime's __td_sink, 64 bytes of global memory):
// declared in `m` once, whichever pass asks first.
llvm::GlobalVariable* accessSink(llvm::Module& m);

// `inst` runs only when `ok` (an integer) is non-zero; a skipped access that produces a value yields zero.
// Plain loads and stores through generic pointers are redirected to the sink instead of branching around,
// so the optimiser keeps scheduling and vectorising the kernel's loops as before.
void guardAccess(llvm::Instruction* inst, llvm::Value* ok);

// Metadata a guard leaves: how many of an instruction's accesses a check confines (the bounds family's
// checks do, skipping what leaves its buffer or array), so containment need not check them again.
void noteConfined(llvm::Instruction& inst);
unsigned confinedAccesses(const llvm::Instruction& inst);

}  // namespace td
