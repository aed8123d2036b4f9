// The NVVM intrinsics of a block barrier, named once for the passes and the CPU executor (the inline-PTX
// forms are in ptx_catalogue.h): what clang emits for __syncthreads, __syncthreads_and/_or/_count and
// named barriers (bar.sync / barrier.sync in PTX).
#pragma once
#include <llvm/ADT/StringRef.h>

namespace td {

enum class NvvmBarrier {
  None,          // not a block barrier
  Block,         // llvm.nvvm.barrier0: __syncthreads()
  BlockReduce,   // llvm.nvvm.barrier0.and / .or / .popc: __syncthreads_and / _or / _count
  Named,         // llvm.nvvm.barrier.sync, .bar.sync, .barrier.n: barrier id (operand 0), every thread
  NamedCounted,  // llvm.nvvm.barrier.sync.cnt, .barrier: barrier id and a thread count (operands 0 and 1)
};

inline NvvmBarrier nvvmBarrierOf(llvm::StringRef intrinsic) {
  if (intrinsic == "llvm.nvvm.barrier0") return NvvmBarrier::Block;
  if (intrinsic.starts_with("llvm.nvvm.barrier0.")) return NvvmBarrier::BlockReduce;
  if (intrinsic == "llvm.nvvm.barrier.sync" || intrinsic == "llvm.nvvm.bar.sync" || intrinsic == "llvm.nvvm.barrier.n")
    return NvvmBarrier::Named;
  if (intrinsic == "llvm.nvvm.barrier.sync.cnt" || intrinsic == "llvm.nvvm.barrier") return NvvmBarrier::NamedCounted;
  return NvvmBarrier::None;
}

// Every thread of the block waits (no thread count): the barriers that order a block's accesses.
inline bool isWholeBlockBarrier(NvvmBarrier b) {
  return b == NvvmBarrier::Block || b == NvvmBarrier::BlockReduce || b == NvvmBarrier::Named;
}

}  // namespace td
