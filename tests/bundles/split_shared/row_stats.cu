// Row softmax and layernorm with two-element shared statistics, as people write them: LLVM splits
// `__shared__ float stats[2]` into two scalar shared globals, which every check family must instrument.
// The scale comes from constant memory. Built with -DNO_BARRIER, the statistics are read before thread 0
// has written them: a race.
__constant__ float output_scale[2] = {1.0f, 0.5f};

extern "C" __global__ void row_softmax(const float* x, float* y, int cols) {
  __shared__ float stats[2];  // the row's max and its sum of exponentials
  const float* xr = x + (long)blockIdx.x * cols;
  if (threadIdx.x == 0) {
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = max(m, xr[c]);
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += __expf(xr[c] - m);
    stats[0] = m;
    stats[1] = s;
  }
#ifndef NO_BARRIER
  __syncthreads();
#endif
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(long)blockIdx.x * cols + c] = output_scale[0] * __expf(xr[c] - stats[0]) / stats[1];
}

extern "C" __global__ void row_layernorm(const __half* x, __half* y, int cols) {
  __shared__ float stats[2];  // mean and rstd
  const __half* xr = x + (long)blockIdx.x * cols;
  if (threadIdx.x == 0) {
    float s = 0.f, sq = 0.f;
    for (int c = 0; c < cols; ++c) {
      float v = __half2float(xr[c]);
      s += v;
      sq += v * v;
    }
    float m = s / cols;
    stats[0] = m;
    stats[1] = rsqrtf(max(sq / cols - m * m, 0.f) + 1e-5f);
  }
#ifndef NO_BARRIER
  __syncthreads();
#endif
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(long)blockIdx.x * cols + c] = __float2half((__half2float(xr[c]) - stats[0]) * stats[1] * output_scale[1]);
}
