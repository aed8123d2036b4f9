// The rules of the sync family's finding kinds (model/rules.h lists every kind's id).
#include "model/rules.h"

namespace td {

std::vector<Rule> syncRules() {
  return {
      {rule::BarrierDivergence, "sync", Severity::Error, "Barrier reached by part of the block",
       "Threads of one block waited at different barriers, or exited while others waited: undefined on NVIDIA, "
       "a hang on MetaX.",
       "Move the barrier out of the thread-dependent branch.", fields::sync},
      {rule::WarpMask, "sync", Severity::Error, "Warp collective with a wrong member mask",
       "A shuffle, vote or __syncwarp named lanes that do not take part, or ran in lanes its mask leaves out.",
       "Compute the mask from the lanes that really take part (__activemask or __ballot_sync).", fields::sync},
      {rule::WarpSizeAssumption, "sync", Severity::Warning, "Code written for 32-lane warps on a 64-lane target",
       "A full-warp mask of 32 bits (0xffffffff) or a lane stride of 32 on a wave-64 target such as MetaX: half "
       "of the wave is left out.",
       "Derive masks and strides from warpSize (64 on MetaX), or use the target's templates.", fields::sync},
      {rule::BarrierIgnored, "sync", Severity::Warning, "A barrier the target does not execute",
       "A partial (named) barrier, one with a thread count, is empty on MetaX's MACA (tl::__sync_thread_partial: "
       "'all threads will sync in a warp in maca'): the threads it orders on NVIDIA are not ordered there, and "
       "the race check runs the kernel without it.",
       "Synchronise the whole block (__syncthreads), or keep the exchange inside one 64-lane wave.", {"location"}},
  };
}

}  // namespace td
