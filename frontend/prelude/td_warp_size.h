// The executor's warp (wave) size where an int is wanted: each executor provides __td_warp_size (the CPU
// reads the profile's warp size, the GPU its own). An object, not a macro, so that code declaring its own
// (`constexpr int warpSize = 64;` in tilelang-metax's reduce.h) still compiles. Included by the prelude
// (td_prelude.h) and by the MACA prelude over the CUDA SDK's headers (td_maca.h).
#pragma once
extern "C" __device__ __attribute__((const)) int __td_warp_size(void);
struct __td_warp_size_value {
  __device__ operator int() const { return __td_warp_size(); }
};
