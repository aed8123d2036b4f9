// PTX for the CUDA executor: the instrumented NVPTX module, with the GPU's executor primitives and, when
// the kernel calls CUDA math functions, the toolkit's libdevice linked in, optimised and compiled by
// LLVM's NVPTX back end for the device's architecture. Needs no GPU, so CI tests it.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
}

namespace td::cuda {

// `arch` is "sm_90" and the like. Runs in a child process (frontend/isolated.h): the module stays as it was. Throws InputError when libdevice is
// needed and not found (it is looked for in $CUDA_HOME/nvvm/libdevice, then /usr/local/cuda/...).
// With `grid` and `block` given, the module is specialised to that launch first (block and grid sizes
// become constants, thread and block indices get their ranges), as the CPU executor does. `beforeCodegen`
// runs on the optimised module, before the back end writes it (address_constants.h).
std::string generatePtx(llvm::Module& m, const std::string& arch, const int64_t* grid = nullptr,
                        const int64_t* block = nullptr, const std::function<void(llvm::Module&)>& beforeCodegen = {});

std::string findLibdevice();  // "" when none

// The GPU's executor primitives (runtime/device/prim_nvptx.cu), compiled, as generatePtx links them in.
std::unique_ptr<llvm::Module> compileGpuPrimitives(llvm::LLVMContext& ctx);

// LLVM 19 writes `.version 8.0`; an instruction TileLang's templates write inline may need a later PTX ISA
// (sm_90 TMA copies into `.shared::cta`: 8.6), which ptxas says in its log ("requires PTX ISA .version 8.6
// or later"). The highest version the log asks for ("" when none), and the PTX with its `.version` line set to
// it (a later ISA still accepts what LLVM wrote: PTX versions only add).
std::string ptxVersionTheLogAsks(const std::string& ptxasLog);
std::string withPtxVersion(const std::string& ptx, const std::string& version);

}  // namespace td::cuda
