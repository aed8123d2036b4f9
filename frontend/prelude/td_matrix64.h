// The 16x16 and 32x32 matrix operations of wave-64 GPUs (AMD MFMA, MetaX MXC MMA) as tile-doctor's warp-collective
// pseudo-instruction "td.mfma": one asm statement only tile-doctor's catalogue knows
// (instrument/ptx_catalogue), computed by the CPU executor for the whole wave at once
// (runtime/cpu/mfma_semantics.cpp). Operands pass as 32-bit words: A and B in the order given, then C;
// D comes back in C's layout. Any operand type of the right size is taken bit for bit.
#pragma once

typedef float __td_f32x4 __attribute__((__vector_size__(16)));
typedef int __td_i32x4 __attribute__((__vector_size__(16)));

template <int N, typename T> struct __td_words {
  unsigned w[N];
  __device__ explicit __td_words(const T& v) {
    static_assert(sizeof(T) == 4 * N, "an MMA operand of the instruction's size");
    __builtin_memcpy(w, &v, sizeof(T));
  }
};

// Two-word A and B (4 halves, 8 bytes of int8/fp8, 2 tf32) and float accumulators.
#define TD_MMA64_F32_2W(NAME, TEXT)                                                                       \
  template <typename AT, typename BT, typename CT> __device__ inline __td_f32x4 NAME(AT a, BT b, CT c) {   \
    __td_words<2, AT> x(a);                                                                              \
    __td_words<2, BT> y(b);                                                                              \
    __td_words<4, CT> z(c);                                                                              \
    float d0, d1, d2, d3;                                                                                \
    asm volatile(TEXT " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};"                              \
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                                                \
                 : "r"(x.w[0]), "r"(x.w[1]), "r"(y.w[0]), "r"(y.w[1]), "r"(z.w[0]), "r"(z.w[1]),         \
                   "r"(z.w[2]), "r"(z.w[3]));                                                            \
    __td_f32x4 d = {d0, d1, d2, d3};                                                                     \
    return d;                                                                                            \
  }
TD_MMA64_F32_2W(__td_mma64_f32_16x16x16_f16, "td.mfma.f32.16x16x16.f16")
TD_MMA64_F32_2W(__td_mma64_f32_16x16x16_bf16, "td.mfma.f32.16x16x16.bf16")
TD_MMA64_F32_2W(__td_mma64_f32_16x16x32_fp8, "td.mfma.f32.16x16x32.fp8")
TD_MMA64_F32_2W(__td_mma64_f32_16x16x32_bf8, "td.mfma.f32.16x16x32.bf8")
TD_MMA64_F32_2W(__td_mma64_f32_16x16x8_tf32, "td.mfma.f32.16x16x8.tf32")
#undef TD_MMA64_F32_2W

// int8 inputs, int32 accumulators: K = 32 (two words of A and B, AMD) or K = 16 (one word, MetaX xcore1000).
template <typename AT, typename BT, typename CT> __device__ inline __td_i32x4 __td_mma64_i32_16x16x32_i8(AT a, BT b, CT c) {
  __td_words<2, AT> x(a);
  __td_words<2, BT> y(b);
  __td_words<4, CT> z(c);
  int d0, d1, d2, d3;
  asm volatile("td.mfma.i32.16x16x32.i8 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(x.w[0]), "r"(x.w[1]), "r"(y.w[0]), "r"(y.w[1]), "r"(z.w[0]), "r"(z.w[1]), "r"(z.w[2]), "r"(z.w[3]));
  __td_i32x4 d = {d0, d1, d2, d3};
  return d;
}
template <typename AT, typename BT, typename CT> __device__ inline __td_i32x4 __td_mma64_i32_16x16x16_i8(AT a, BT b, CT c) {
  __td_words<1, AT> x(a);
  __td_words<1, BT> y(b);
  __td_words<4, CT> z(c);
  int d0, d1, d2, d3;
  asm volatile("td.mfma.i32.16x16x16.i8 {%0,%1,%2,%3}, {%4}, {%5}, {%6,%7,%8,%9};"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(x.w[0]), "r"(y.w[0]), "r"(z.w[0]), "r"(z.w[1]), "r"(z.w[2]), "r"(z.w[3]));
  __td_i32x4 d = {d0, d1, d2, d3};
  return d;
}

// One float each of A and B (K = 4).
template <typename CT> __device__ inline __td_f32x4 __td_mma64_f32_16x16x4_f32(float a, float b, CT c) {
  __td_words<4, CT> z(c);
  float d0, d1, d2, d3;
  asm volatile("td.mfma.f32.16x16x4.f32 {%0,%1,%2,%3}, {%4}, {%5}, {%6,%7,%8,%9};"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "f"(a), "f"(b), "r"(z.w[0]), "r"(z.w[1]), "r"(z.w[2]), "r"(z.w[3]));
  __td_f32x4 d = {d0, d1, d2, d3};
  return d;
}

// 32x32 tiles over K = 8 (AMD's v_mfma_f32_32x32x8{f16,bf16}): two words of A and B, 16 float accumulators.
typedef float __td_f32x16 __attribute__((__vector_size__(64)));
#define TD_MMA64_F32_32x32(NAME, TEXT)                                                                   \
  template <typename AT, typename BT, typename CT> __device__ inline __td_f32x16 NAME(AT a, BT b, CT c) {  \
    __td_words<2, AT> x(a);                                                                             \
    __td_words<2, BT> y(b);                                                                             \
    __td_words<16, CT> z(c);                                                                            \
    float d[16];                                                                                        \
    asm volatile(TEXT " {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17}, {%18,%19}, "  \
                      "{%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35};"                \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]),      \
                   "=f"(d[7]), "=f"(d[8]), "=f"(d[9]), "=f"(d[10]), "=f"(d[11]), "=f"(d[12]), "=f"(d[13]),  \
                   "=f"(d[14]), "=f"(d[15])                                                             \
                 : "r"(x.w[0]), "r"(x.w[1]), "r"(y.w[0]), "r"(y.w[1]), "r"(z.w[0]), "r"(z.w[1]),        \
                   "r"(z.w[2]), "r"(z.w[3]), "r"(z.w[4]), "r"(z.w[5]), "r"(z.w[6]), "r"(z.w[7]),        \
                   "r"(z.w[8]), "r"(z.w[9]), "r"(z.w[10]), "r"(z.w[11]), "r"(z.w[12]), "r"(z.w[13]),    \
                   "r"(z.w[14]), "r"(z.w[15]));                                                         \
    __td_f32x16 out;                                                                                    \
    for (int i = 0; i < 16; ++i) out[i] = d[i];                                                         \
    return out;                                                                                         \
  }
TD_MMA64_F32_32x32(__td_mma64_f32_32x32x8_f16, "td.mfma.f32.32x32x8.f16")
TD_MMA64_F32_32x32(__td_mma64_f32_32x32x8_bf16, "td.mfma.f32.32x32x8.bf16")
#undef TD_MMA64_F32_32x32
