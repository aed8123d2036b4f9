// y = 3.1 x over blocks of 128 threads. The bug: warp 2 of every block still goes through a half
// conversion left over from a half-precision version of the kernel, so its elements lose 13 bits.
__global__ void warp_scale(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i] * 3.1f;
  if (threadIdx.x / 32 == 2) v = __half2float(__float2half(v));
  y[i] = v;
}
