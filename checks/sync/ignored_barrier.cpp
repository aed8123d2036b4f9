#include "checks/sync/ignored_barrier.h"

#include <fmt/format.h>

#include "model/rules.h"

namespace td {

Finding ignoredStatementFinding(const IgnoredStatement& s, const Profile& target) {
  Finding f;
  f.kind = rule::BarrierIgnored;
  f.title = fmt::format("{} is not executed on {}: a partial barrier is empty there", s.what, target.name);
  f.loc = s.loc;
  f.notes.push_back("MACA's tl::__sync_thread_partial has an empty body ('all threads will sync in a warp in "
                    "maca, does not need partial version'): the threads this barrier orders on NVIDIA run on "
                    "unordered, and the kernel was run without it");
  f.notes.push_back("a race between accesses on either side of it comes from this; __syncthreads() orders the "
                    "whole block, or keep the exchange inside one 64-lane wave");
  return f;
}

}  // namespace td
