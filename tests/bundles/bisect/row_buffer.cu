// A row cached in shared memory sized for the widths its author tried: every column is copied in, so a
// row wider than 2048 writes past the cache.
__global__ void scale_by_row_max(const float* x, float* y, int n) {
  __shared__ float row[2048];
  __shared__ float peak;
  for (int c = threadIdx.x; c < n; c += blockDim.x) row[c] = x[blockIdx.x * n + c];
  __syncthreads();
  if (threadIdx.x == 0) {
    float m = 0;
    for (int c = 0; c < n && c < 2048; ++c) m = fmaxf(m, fabsf(row[c]));
    peak = m > 0 ? m : 1;
  }
  __syncthreads();
  for (int c = threadIdx.x; c < n; c += blockDim.x) y[blockIdx.x * n + c] = x[blockIdx.x * n + c] / peak;
}
