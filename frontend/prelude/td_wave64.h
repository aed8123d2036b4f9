// What the two wave-64 dialects' preludes (td_hip.h, td_maca.h) share besides their matrix operations.
#pragma once

// A value shuffled as the integer word that holds its bytes (16-bit floats, pairs, 8-byte values): clang's
// shuffles take int, float, long long and their kin only.
template <bool Narrow> struct __td_shfl_word { typedef int type; };
template <> struct __td_shfl_word<false> { typedef long long type; };
template <typename T, typename F> __device__ inline T __td_shfl_words(T v, F shuffle) {
  static_assert(sizeof(T) <= 8, "a shuffled value is at most 8 bytes");
  typename __td_shfl_word<sizeof(T) <= 4>::type w = 0;
  __builtin_memcpy(&w, &v, sizeof(T));
  w = shuffle(w);
  T out;
  __builtin_memcpy(&out, &w, sizeof(T));
  return out;
}

// The wave's shuffles of one 32-bit word (and of an 8-byte value, word by word), as clang's __shfl*
// compute them but with the executor's wave size (__td_warp_size) in the control word: the same under the
// prelude and under the CUDA SDK's headers, where clang's own are fixed at 32 lanes.
#include <td_warp_size.h>
#define TD_WAVE_SHUFFLE(NAME, INTRINSIC, CLAMP, OFFSET)                                                    \
  __device__ inline int NAME(int v, OFFSET o, int width) {                                                 \
    return INTRINSIC(v, o, ((__td_warp_size() - width) << 8) | (CLAMP));                                   \
  }                                                                                                        \
  __device__ inline long long NAME(long long v, OFFSET o, int width) {                                     \
    int w[2];                                                                                              \
    __builtin_memcpy(w, &v, 8);                                                                            \
    w[0] = NAME(w[0], o, width);                                                                           \
    w[1] = NAME(w[1], o, width);                                                                           \
    __builtin_memcpy(&v, w, 8);                                                                            \
    return v;                                                                                              \
  }
TD_WAVE_SHUFFLE(__td_wave_shfl, __nvvm_shfl_idx_i32, 0x1f, int)
TD_WAVE_SHUFFLE(__td_wave_shfl_up, __nvvm_shfl_up_i32, 0, unsigned)
TD_WAVE_SHUFFLE(__td_wave_shfl_down, __nvvm_shfl_down_i32, 0x1f, unsigned)
TD_WAVE_SHUFFLE(__td_wave_shfl_xor, __nvvm_shfl_bfly_i32, 0x1f, int)
#undef TD_WAVE_SHUFFLE

// The thread's lane in its wave (the block's threads numbered x fastest, then y, then z).
__device__ inline int __td_wave_lane() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % __td_warp_size();
}
