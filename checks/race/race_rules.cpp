// The rules of the race family's finding kinds (model/rules.h lists every kind's id).
#include "model/rules.h"

namespace td {

std::vector<Rule> raceRules() {
  return {
      {rule::SharedRaceRaw, "race", Severity::Error, "Read-after-write race on shared memory",
       "A thread read shared memory another thread wrote, with no barrier ordering them.",
       "Put __syncthreads() (T.sync / a pipeline wait) between the write and the read.", fields::race},
      {rule::SharedRaceWar, "race", Severity::Error, "Write-after-read race on shared memory",
       "A thread overwrote shared memory another thread still reads, with no barrier between.",
       "Add a barrier before the next write (double-buffered loops need one per stage).", fields::race},
      {rule::SharedRaceWaw, "race", Severity::Error, "Write-after-write race on shared memory",
       "Two threads wrote the same shared bytes with nothing ordering them; the result depends on the schedule.",
       "Give each thread its own elements, or order the writes with a barrier or atomics.", fields::race},
      {rule::GlobalRaceRaw, "race", Severity::Error, "Read-after-write race on global memory",
       "A thread read global memory another thread (or block) wrote with nothing ordering them.",
       "Blocks are not ordered within a launch: split the kernel, or use atomics and a grid-wide protocol.",
       fields::race},
      {rule::GlobalRaceWar, "race", Severity::Error, "Write-after-read race on global memory",
       "A thread overwrote global memory another thread reads, with nothing ordering them.",
       "Write to a separate output, or order the accesses.", fields::race},
      {rule::GlobalRaceWaw, "race", Severity::Error, "Write-after-write race on global memory",
       "Two threads or blocks wrote the same global bytes; the last writer wins by chance (edge tiles that wrap "
       "into the next row are a common cause).",
       "Guard the edge so each element has one writer, or use atomics to accumulate.", fields::race},
      {rule::SharedRaceSameValue, "race", Severity::Warning, "Unordered writes of the same bytes to shared memory",
       "Threads wrote shared bytes with nothing ordering them, but each stored the bytes already there (every thread "
       "staging the same element, or storing one all-reduced value): no schedule changes what is read. Set aside as "
       "benign unless --strict-races.",
       "Let one thread write (threadIdx.x == 0) if the duplicate stores cost bandwidth; no fix is needed for "
       "correctness.", fields::race, "strict-races"},
      {rule::GlobalRaceSameValue, "race", Severity::Warning, "Unordered writes of the same bytes to global memory",
       "Threads or blocks wrote global bytes with nothing ordering them, but each stored the bytes already there "
       "(every thread of a block storing its all-reduced mean): no schedule changes the result. Set aside as benign "
       "unless --strict-races.",
       "Let one thread write (threadIdx.x == 0) if the duplicate stores cost bandwidth; no fix is needed for "
       "correctness.", fields::race, "strict-races"},
  };
}

}  // namespace td
