// The fp64 reference of a run with the numerics family: every output element's shadow — the value exact
// arithmetic in double gives from the same inputs, along the kernel's own operations — as the family's
// per-buffer state holds it (TD_REGION_NUM_BUFFER: per 2 bytes, the value an instrumented store wrote and
// its shadow). An element whose memory no longer holds what an instrumented store wrote (written by code
// the shadows do not follow, or never written) has none: its reference is its own value, and it is counted.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "driver/check.h"

namespace td {

struct Fp64Outputs {
  std::map<std::string, std::vector<double>> values;  // by output name
  std::map<std::string, uint64_t> unshadowed;         // elements without a shadow, by output name
};

// `run` must have been checked with the numerics family and readBackBufferStates.
Fp64Outputs fp64Outputs(const CheckResult& run);

// What a check request needs for fp64Outputs: the numerics family with fp64 shadows for half and bfloat16
// too, and the per-buffer states read back.
void requestFp64Shadows(CheckRequest& req);

}  // namespace td
