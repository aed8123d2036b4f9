// The CUDA SDK's half/bfloat16 arithmetic and comparisons, one inline-PTX statement each (cuda_fp16.hpp,
// cuda_bf16.hpp): each thread combines its three elements every way and writes the bits of each result.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ unsigned short bitsOf(__half h) { return __half_as_ushort(h); }
__device__ unsigned short bitsOf(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
__device__ unsigned int bitsOf(__half2 p) { return bitsOf(__low2half(p)) | (unsigned(bitsOf(__high2half(p))) << 16); }

extern "C" __global__ void half_arithmetic(const float* X, const float* Y, const float* Z, unsigned short* Half,
                                           unsigned short* Bf16, unsigned int* Pairs, unsigned short* Special) {
  int i = threadIdx.x;
  __half x = __float2half(X[i]), y = __float2half(Y[i]), z = __float2half(Z[i]);
  unsigned short* h = Half + 14 * i;
  h[0] = bitsOf(__hadd(x, y));       // add.f16
  h[1] = bitsOf(__hsub(x, y));       // sub.f16
  h[2] = bitsOf(__hmul(x, y));       // mul.f16
  h[3] = bitsOf(__hfma(x, y, z));    // fma.rn.f16
  h[4] = bitsOf(__hmin(x, y));       // min.f16
  h[5] = bitsOf(__hmax(x, y));       // max.f16
  h[6] = bitsOf(__hadd_sat(x, y));   // add.sat.f16
  h[7] = bitsOf(__hfma_relu(x, y, z));  // fma.rn.relu.f16
  h[8] = __heq(x, y) + 2 * __hlt(x, y) + 4 * __hgeu(x, y);  // setp.{eq,lt,geu}.f16 + selp.u16
  h[9] = bitsOf(__hmul_rn(x, y));    // mul.rn.f16
  h[10] = bitsOf(__hsub_sat(x, z));  // sub.sat.f16
  h[11] = bitsOf(__hfma_sat(x, y, z));  // fma.rn.sat.f16
  h[12] = (unsigned short)__half2short_rn(__hmul(x, __float2half(100.0f)));  // cvt.rni.s16.f16
  h[13] = bitsOf(__int2half_rn((int)(X[i] * 1000.0f)));  // cvt.rn.f16.s32: above 2048 it rounds

  __nv_bfloat16 bx = __float2bfloat16(X[i]), by = __float2bfloat16(Y[i]), bz = __float2bfloat16(Z[i]);
  unsigned short* b = Bf16 + 6 * i;
  b[0] = bitsOf(__hadd(bx, by));     // add.bf16 (sm_90)
  b[1] = bitsOf(__hsub(bx, by));     // sub.bf16
  b[2] = bitsOf(__hmul(bx, by));     // mul.bf16
  b[3] = bitsOf(__hfma(bx, by, bz)); // fma.rn.bf16
  b[4] = bitsOf(__hmax(bx, by));     // max.bf16
  b[5] = __hgt(bx, by);              // setp.gt.bf16

  __half2 p = __halves2half2(x, y), q = __halves2half2(z, x);
  unsigned int* w = Pairs + 4 * i;
  w[0] = bitsOf(__hadd2(p, q));     // add.f16x2
  w[1] = bitsOf(__hfma2(p, q, p));  // fma.rn.f16x2
  w[2] = __heq2_mask(p, q) ^ __hlt2_mask(p, q);  // set.{eq,lt}.u32.f16x2
  w[3] = bitsOf(__hle2(p, q));      // set.le.f16x2.f16x2: 1.0 or 0.0 per half

  if (i == 0) {  // NaN operands: min/max give the other one, .NaN and arithmetic the canonical NaN
    __half nan = __ushort_as_half(0x7e01), one = __float2half(1.0f), negZero = __ushort_as_half(0x8000);
    Special[0] = bitsOf(__hmin(nan, one));
    Special[1] = bitsOf(__hmin_nan(nan, one));
    Special[2] = bitsOf(__hadd(nan, one));
    Special[3] = bitsOf(__hmin(negZero, __float2half(0.0f)));
    Special[4] = bitsOf(__hmax(negZero, __float2half(0.0f)));
    Special[5] = __heq(nan, nan) + 2 * __hequ(nan, nan) + 4 * __hisnan(nan);
    Special[6] = bitsOf(__hadd_sat(nan, one));
    Special[7] = bitsOf(__hmul(__float2half(60000.0f), __float2half(2.0f)));  // overflow: +inf
  }
}
