// Where a multiply and the add or subtract that uses it become one fused multiply-add (fma.rn on the GPU),
// decided once, before any check sees the kernel. Clang marks CUDA's float arithmetic `contract`
// (-ffp-contract=fast) and leaves the fusing to the back end, which decides late and by the product's
// number of uses: the checks add uses (a shadow takes the product), and the host CPU of the CPU executor
// may have no FMA at all — so without this the instrumented kernel computed other bits than the
// uninstrumented one (1 ulp on 12% of one generated kernel's outputs, tests/kernel_gen).
#pragma once

namespace llvm {
class Module;
}

namespace td {

// Every float or double fadd/fsub (scalar or vector) with a `contract` fmul operand of its block becomes llvm.fma, as
// NVPTX's aggressive fusion does, whatever else uses the product; then no float or double operation keeps
// `contract`, so no later pass or back end fuses anything else; llvm.fmuladd becomes llvm.fma. Half and
// bfloat16 are left as they are.
void settleContraction(llvm::Module& m);

}  // namespace td
