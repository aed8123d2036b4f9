// The run's addresses out of the PTX text (issue 34): with unified addressing every device allocation and
// the mapped record memory lie in the process's address space, which ASLR moves from run to run, so PTX
// with baked addresses was new text each run and the driver compiled it again (ptxas: 0.2-10 s) instead of
// taking its compute cache's cubin. The control block is baked with its address words as symbols
// (controlBlockAddresses), and the kernel's pointer parameters as their buffers' symbols, so the
// optimiser folds the checks' arithmetic exactly as with the values; then, before the back end runs, each
// symbol becomes what holds its value on the GPU.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace llvm {
class Module;
}

namespace td::cuda {

// In `kernel` a buffer's base symbol becomes the parameter `pointerSymbols` (as bakeArguments took it) names
// it for again (the same address); every other use loads the address from a `.const` variable named addressConstant(symbol),
// which the executor writes after loading the module. A symbol still in a global's initializer (the control
// block, which hooks that stay functions index at run time) is zero in the text, and that global is no
// longer constant: the executor writes the control block's real bytes after loading.
void moveAddressesToConstants(llvm::Module& m, const std::string& kernel, const std::map<std::string, uint64_t>& values,
                              const std::map<unsigned, std::string>& pointerSymbols);
std::string addressConstant(const std::string& symbol);

}  // namespace td::cuda
