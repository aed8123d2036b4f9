// HIP for a wave-64 GPU, written as TileLang's HIP backend writes it: one MFMA 16x16x16 tile (the CDNA3
// operand layouts), HIP's mask-less shuffles in groups of `width` lanes, the wave size as HIP reports it,
// and hip_bfloat16 rounding.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

typedef _Float16 f16x4 __attribute__((__vector_size__(8)));
typedef float f32x4 __attribute__((__vector_size__(16)));

extern "C" __global__ void __launch_bounds__(64) wave_ops(const _Float16* __restrict__ A, const _Float16* __restrict__ B,
                                                          const float* __restrict__ C, float* __restrict__ D,
                                                          int* __restrict__ lanes, float* __restrict__ rounded) {
  const int l = threadIdx.x;
  f16x4 a, b;
  f32x4 c;
  for (int e = 0; e < 4; ++e) {  // lane l: row l%16 of A and column l%16 of B, k = 4*(l/16) + e
    a[e] = A[(l % 16) * 16 + 4 * (l / 16) + e];
    b[e] = B[(4 * (l / 16) + e) * 16 + l % 16];
    c[e] = C[(4 * (l / 16) + e) * 16 + l % 16];
  }
  f32x4 d = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
  for (int e = 0; e < 4; ++e) D[(4 * (l / 16) + e) * 16 + l % 16] = d[e];
  lanes[l] = __shfl_down(l, 16, 32);    // 32-lane groups: lanes 16-31 and 48-63 keep their own value
  lanes[64 + l] = __shfl_xor(l, 32);    // the whole wave: the other half's lane
  lanes[128 + l] = __shfl(l, 3, 16);    // lane 3 of each 16-lane group
  lanes[192 + l] = __builtin_amdgcn_wavefrontsize();
  hip_bfloat16 r(C[l]);                 // rounded to nearest even
  rounded[l] = float(r);
}
