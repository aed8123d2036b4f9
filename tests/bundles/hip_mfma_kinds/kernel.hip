// Every AMD MFMA shape TileLang's HIP backend and hand-written HIP use on a wave-64 GPU, one tile each,
// operands gathered by the CDNA3 layouts (AMD Instinct MI300 ISA, "Matrix fragments"): lane l holds
// e = K*M/64 consecutive k of row l%M of A and column l%M of B (k from e*(l/M)); D holds M*M/64 values of
// column l%M, register r at row 4*(64/M)*(r/4) + 4*(l/M) + r%4. The K = 32 half and bfloat16 forms are
// CDNA4's (gfx950, the HIP stand-in's GPU: T.gemm with k_pack=2).
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

typedef _Float16 f16x4 __attribute__((__vector_size__(8)));
typedef _Float16 f16x8 __attribute__((__vector_size__(16)));
typedef short bf16x8 __attribute__((__vector_size__(16)));
typedef short bf16x4 __attribute__((__vector_size__(8)));
typedef float f32x4 __attribute__((__vector_size__(16)));
typedef float f32x16 __attribute__((__vector_size__(64)));
typedef int i32x4 __attribute__((__vector_size__(16)));
typedef long i64;

__device__ inline int outRow(int M, int l, int r) { return 4 * (64 / M) * (r / 4) + 4 * (l / M) + r % 4; }

extern "C" __global__ void __launch_bounds__(64) mfma_kinds(
    const _Float16* __restrict__ Ah, const _Float16* __restrict__ Bh, const unsigned short* __restrict__ Ab,
    const unsigned short* __restrict__ Bb, const float* __restrict__ C32, float* __restrict__ Dh32,
    float* __restrict__ Db32, const float* __restrict__ Af, const float* __restrict__ Bf,
    const float* __restrict__ C16, float* __restrict__ Df, const unsigned short* __restrict__ Ab16,
    const unsigned short* __restrict__ Bb16, float* __restrict__ Db16, const signed char* __restrict__ Ai,
    const signed char* __restrict__ Bi, const int* __restrict__ Ci, int* __restrict__ Di,
    const _Float16* __restrict__ Ah32, const _Float16* __restrict__ Bh32, const unsigned short* __restrict__ Ab32,
    const unsigned short* __restrict__ Bb32, float* __restrict__ Dh1632, float* __restrict__ Db1632) {
  const int l = threadIdx.x;
  // 32x32x8 f16 and bf16: 4 k per lane, 16 accumulators
  f16x4 ah, bh;
  bf16x4 ab, bb;
  f32x16 c;
  for (int e = 0; e < 4; ++e) {
    int k = 4 * (l / 32) + e;
    ah[e] = Ah[(l % 32) * 8 + k];
    bh[e] = Bh[k * 32 + l % 32];
    ab[e] = (short)Ab[(l % 32) * 8 + k];
    bb[e] = (short)Bb[k * 32 + l % 32];
  }
  for (int r = 0; r < 16; ++r) c[r] = C32[outRow(32, l, r) * 32 + l % 32];
  f32x16 dh = __builtin_amdgcn_mfma_f32_32x32x8f16(ah, bh, c, 0, 0, 0);
  f32x16 db = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(ab, bb, c, 0, 0, 0);
  for (int r = 0; r < 16; ++r) {
    Dh32[outRow(32, l, r) * 32 + l % 32] = dh[r];
    Db32[outRow(32, l, r) * 32 + l % 32] = db[r];
  }
  // 16x16x4 f32: one k per lane
  f32x4 c4;
  for (int r = 0; r < 4; ++r) c4[r] = C16[outRow(16, l, r) * 16 + l % 16];
  f32x4 df = __builtin_amdgcn_mfma_f32_16x16x4f32(Af[(l % 16) * 4 + l / 16], Bf[(l / 16) * 16 + l % 16], c4, 0, 0, 0);
  // 16x16x16 bf16: 4 k per lane
  bf16x4 a16, b16;
  for (int e = 0; e < 4; ++e) {
    int k = 4 * (l / 16) + e;
    a16[e] = (short)Ab16[(l % 16) * 16 + k];
    b16[e] = (short)Bb16[k * 16 + l % 16];
  }
  f32x4 d16 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a16, b16, c4, 0, 0, 0);
  // 16x16x32 i8: 8 k per lane, packed low byte first
  i64 ai = 0, bi = 0;
  for (int e = 0; e < 8; ++e) {
    int k = 8 * (l / 16) + e;
    ai |= (i64)(unsigned char)Ai[(l % 16) * 32 + k] << (8 * e);
    bi |= (i64)(unsigned char)Bi[k * 16 + l % 16] << (8 * e);
  }
  i32x4 ci;
  for (int r = 0; r < 4; ++r) ci[r] = Ci[outRow(16, l, r) * 16 + l % 16];
  i32x4 di = __builtin_amdgcn_mfma_i32_16x16x32_i8(ai, bi, ci, 0, 0, 0);
  // 16x16x32 f16 and bf16 (gfx950): 8 k per lane
  f16x8 ah32, bh32;
  bf16x8 ab32, bb32;
  for (int e = 0; e < 8; ++e) {
    int k = 8 * (l / 16) + e;
    ah32[e] = Ah32[(l % 16) * 32 + k];
    bh32[e] = Bh32[k * 16 + l % 16];
    ab32[e] = (short)Ab32[(l % 16) * 32 + k];
    bb32[e] = (short)Bb32[k * 16 + l % 16];
  }
  f32x4 dh1632 = __builtin_amdgcn_mfma_f32_16x16x32_f16(ah32, bh32, c4, 0, 0, 0);
  f32x4 db1632 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(ab32, bb32, c4, 0, 0, 0);
  for (int r = 0; r < 4; ++r) {
    Df[outRow(16, l, r) * 16 + l % 16] = df[r];
    Db16[outRow(16, l, r) * 16 + l % 16] = d16[r];
    Di[outRow(16, l, r) * 16 + l % 16] = di[r];
    Dh1632[outRow(16, l, r) * 16 + l % 16] = dh1632[r];
    Db1632[outRow(16, l, r) * 16 + l % 16] = db1632[r];
  }
}
