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
