// The CUDA SDK's scalar half/bfloat16 helpers, whose device forms are one inline-PTX statement each
// (cuda_fp16.hpp, cuda_bf16.hpp): each thread converts one element every way and writes the results.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void half_scalars(const float* X, float* Widened, __half* Narrowed, __half* Negated,
                                        __half* Absolute, float* BWidened, __nv_bfloat16* BNarrowed,
                                        __half2* Pairs, __half2* NegPairs) {
  int i = threadIdx.x;
  float x = X[i];
  __half h = __float2half(x);            // cvt.rn.f16.f32
  Narrowed[i] = h;
  Widened[i] = __half2float(h);          // cvt.f32.f16
  Negated[i] = __hneg(h);                // neg.f16
  Absolute[i] = __habs(h);               // abs.f16
  __nv_bfloat16 bh = __float2bfloat16(x);  // cvt.rn.bf16.f32
  BNarrowed[i] = bh;
  BWidened[i] = __bfloat162float(bh);    // mov.b32 $0, {0,$1}
  __half2 p = __halves2half2(h, __hneg(h));  // mov.b32 $0, {$1,$2}
  Pairs[i] = p;
  NegPairs[i] = __hneg2(p);              // neg.f16x2
}
