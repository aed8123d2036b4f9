// int8 dot products through the CUDA SDK's __dp4a (dp4a.s32.s32 and dp4a.u32.u32), as TileLang's SIMT
// GEMM and GEMV write their int8 inner loops: four byte products of two words added to an accumulator.
#include <cuda_runtime.h>

extern "C" __global__ void dot4(const int* a, const int* b, const int* c, int* s, unsigned* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[i] = __dp4a(a[i], b[i], c[i]);
  u[i] = __dp4a((unsigned)a[i], (unsigned)b[i], (unsigned)c[i]);
}
