// A stand-in for tilelang-metax's tl_templates/maca/common.h, written here for the generated-source tests:
// the names the dumps below use (tilelang-metax's real templates need mcTlass's CuTe, which is not public).
#pragma once
#include <mcr/mc_runtime.h>
#include <common/maca_fp16.h>

using half_t = __half;

namespace tl {
// The wave-wide sum the dumps' row reductions call: a butterfly over the 64 lanes of a MACA wave.
template <typename T>
__device__ T wave_sum(T v) {
  for (int offset = 32; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, offset, 64);
  return v;
}
}  // namespace tl
