// The same GEMVs through the CUDA SDK's half type, whose arithmetic and conversions are inline PTX on 16-bit
// registers (cuda_fp16.hpp: __hfma is fma.rn.f16): shadows follow the catalogue's semantics of each statement.
#include <cuda_fp16.h>

extern "C" __global__ void __launch_bounds__(128) gemv_half_accum(const __half* __restrict__ A, const __half* __restrict__ x,
                                                                  __half* __restrict__ y, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  __half acc = __float2half(0.0f);
  for (int k = 0; k < K; ++k) acc = __hfma(A[row * K + k], x[k], acc);
  y[row] = acc;
}

extern "C" __global__ void __launch_bounds__(128) gemv_float_accum(const __half* __restrict__ A, const __half* __restrict__ x,
                                                                   __half* __restrict__ y, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc = fmaf(__half2float(A[row * K + k]), __half2float(x[k]), acc);
  y[row] = __float2half(acc);
}
