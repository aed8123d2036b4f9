// Row softmax, one warp per row, reductions with warp shuffles. Written for any warp size (warpSize),
// so the same kernel runs with 32-lane warps on NVIDIA and 64-lane waves on MetaX.
__device__ float warp_max(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}
__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__global__ void softmax(const float* x, float* y, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int lane = threadIdx.x % warpSize;
  if (warp >= rows) return;
  const float* in = x + warp * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += warpSize) m = fmaxf(m, in[c]);
  m = warp_max(m);
  float s = 0.0f;
  for (int c = lane; c < cols; c += warpSize) s += expf(in[c] - m);
  s = warp_sum(s);
  for (int c = lane; c < cols; c += warpSize) y[warp * cols + c] = expf(in[c] - m) / s;
}
