// One float converted into both halves of a pair, as the CUDA SDK writes it (__float2half2_rn,
// __float2bfloat162_rn: a .reg, one cvt.rn and mov.b32 {low,low}); the kernel generator met it first.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void both_halves(const float* x, __half2* h, __nv_bfloat162* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  h[i] = __hmul2(__float2half2_rn(x[i]), __float2half2_rn(0.5f));
  b[i] = __float2bfloat162_rn(x[i]);
}
