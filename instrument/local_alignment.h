// Local arrays aligned for the widest access made to them, before any check sees the kernel. TileLang
// declares `float scores_max[2]` and reads it as `*(float2*)scores_max`: clang gives the array its element's
// alignment (4) and the load the vector's (8). Uninstrumented, the array lives in registers and the
// difference never shows; once a check takes its address it stays in local memory, where the GPU faults on
// the 8-byte access to a 4-aligned slot (CUDA_ERROR_MISALIGNED_ADDRESS, measured on the H200 in three
// TileLang attention examples). nvcc never shows it either, so the slot gets the access's alignment.
#pragma once

namespace llvm {
class Module;
}

namespace td {

// Raises each alloca's alignment to what the loads, stores and copies through it need.
void alignLocalArraysForTheirAccesses(llvm::Module& m);

}  // namespace td
