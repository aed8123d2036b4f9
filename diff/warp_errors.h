// An output's errors per warp: which warp of its block last wrote each element, read from the race
// family's per-buffer access history (TD_REGION_BUFFER_HISTORY: the last writer's thread per 4 bytes), so a
// difference made by one warp of every block ("warp 3 is wrong") shows. Needs the race family.
#pragma once
#include <cstdint>
#include <vector>

#include "diff/output_comparison.h"
#include "driver/check.h"

namespace td {

struct WarpErrors {
  unsigned warpSize = 32;
  std::vector<uint64_t> elements;    // per warp of a block (by its index in the block): elements it last wrote
  std::vector<double> worst;         // the worst error / allowance among them (inf: a non-finite mismatch)
  std::vector<uint64_t> mismatched;  // elements past the allowance
  uint64_t unattributed = 0;         // elements no instrumented store wrote (or too narrow a history to tell)
  double unattributedWorst = 0;      // and the worst error / allowance among them
};

// Empty (no warps) when the run did not read back the race family's buffer access history of this output.
WarpErrors warpErrors(const CheckResult& run, const OutputComparison& c, unsigned warpSize, double rtol, double atol);

}  // namespace td
