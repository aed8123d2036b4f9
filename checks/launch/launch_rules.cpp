// The rules of the launch family's finding kinds (model/rules.h lists every kind's id).
#include "model/rules.h"

namespace td {

std::vector<Rule> launchRules() {
  return {
      {rule::SharedMemoryLimit, "launch", Severity::Error, "Shared memory over the target's limit",
       "Static and dynamic shared memory of one block exceed what the target allows per block; the launch "
       "would fail (MetaX C500: 65536 bytes).",
       "Shrink the tiles (block_K, stages) or the padding until the bytes fit.", fields::limit},
      {rule::ThreadsPerBlockLimit, "launch", Severity::Error, "Threads per block over the target's limit",
       "The block has more threads than the target allows (in all, or along one dimension).",
       "Use fewer threads per block and more blocks.", fields::limit},
      {rule::GridLimit, "launch", Severity::Error, "Grid dimension over the target's limit",
       "A grid dimension exceeds the target's (2^31-1 in x, 65535 in y and z on NVIDIA).",
       "Put the large extent in x, or loop inside the kernel.", fields::limit},
      {rule::PrivateMemoryLimit, "launch", Severity::Error, "Private memory per thread over the target's limit",
       "The compiled kernel keeps more bytes per thread in private (local) memory than the target allows - local "
       "arrays indexed at run time, which the compiler cannot hold in registers. The launch would fail (MetaX C500: "
       "16 KB per thread, mcErrorMemoryValue).",
       "Make the array smaller, index it with compile-time constants (unrolled loops) so it lives in registers, or "
       "move it to shared memory.",
       fields::limit},
      {rule::RegisterLimit, "launch", Severity::Error, "Registers per block over the target's limit",
       "The kernel's registers a thread, times the block's threads (allocated per warp), exceed the registers one "
       "block may have (64K on NVIDIA from compute capability 5.0 on): the driver refuses the launch with "
       "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ('too many resources requested for launch'). Counted by NVIDIA's assembler "
       "on the kernel as written, without __launch_bounds__.",
       "Give the kernel __launch_bounds__(THREADS) so the compiler keeps to the registers a block may have (it spills "
       "instead), or launch fewer threads per block.",
       fields::limit},
      {rule::TargetUnsupported, "launch", Severity::Error, "A hardware feature the target lacks",
       "The kernel uses a feature the target GPU does not have - Hopper TMA copies or warpgroup MMA, mbarriers, "
       "thread-block clusters, MMA with fp16 accumulators (none of them on MetaX) - so it cannot be compiled or "
       "run there as it is.",
       "Lower the program for a GPU without the feature (TileLang: --tilelang-arch sm_80), or use the target's "
       "own form; the note names it.",
       fields::limit},
      {rule::LaunchBoundsDefault, "launch", Severity::Warning, "More threads than the target compiles an unbounded kernel for",
       "The kernel has no __launch_bounds__ and is launched with more threads per block than the target's compiler "
       "assumes without one (MACA: 512, where CUDA assumes 1024). MetaX's runtime then recompiles the kernel for "
       "the larger block at its first launch; the kernel was checked as launched.",
       "Give the kernel __launch_bounds__(THREADS) for the block it is launched with (TileLang's kernels always "
       "have one).",
       fields::limit},
  };
}

}  // namespace td
