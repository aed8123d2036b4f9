// Unordered writes of the same bytes, as real kernels make them (TileLang's layernorm and naive GEMV):
// correct, and not races. Built with -DDIFFERENT_VALUE, one thread writes another value: a race.

// A row layernorm: the block all-reduces the row's sum and sum of squares (butterfly shuffles, then the
// warps' partials in shared memory), so every thread holds the same mean and rstd, and every thread stores
// them, as TileLang's `for i in T.Parallel(blk_m): Mean[bx] = mean_row[i]` lowers for 256 threads.
extern "C" __global__ void layernorm(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                     float* rstd, int cols) {
  __shared__ float partial[2][32];
  int row = blockIdx.x, lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, warps = blockDim.x / warpSize;
  const float* xr = x + (long)row * cols;
  float s = 0.f, sq = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    s += xr[c];
    sq += xr[c] * xr[c];
  }
  for (int o = warpSize / 2; o > 0; o >>= 1) {  // written for any warp size, as a MetaX port must be
    s += __shfl_xor_sync(__activemask(), s, o);
    sq += __shfl_xor_sync(__activemask(), sq, o);
  }
  if (lane == 0) {
    partial[0][warp] = s;
    partial[1][warp] = sq;
  }
  __syncthreads();
  float ts = 0.f, tsq = 0.f;
  for (int w = 0; w < warps; ++w) {
    ts += partial[0][w];
    tsq += partial[1][w];
  }
  float m = ts / cols, r = rsqrtf(tsq / cols - m * m + 1e-5f);
#ifdef DIFFERENT_VALUE
  if (threadIdx.x == 37) m += 1.0f;  // one thread's mean is off: the stored value depends on who writes last
#endif
  mean[row] = m;
  rstd[row] = r;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(long)row * cols + c] = (xr[c] - m) * r * gamma[c] + beta[c];
}

// TileLang's naive GEMV: every thread stages the whole A chunk into shared memory, so each A_shared[tk] is
// written by every thread with the same half.
extern "C" __global__ void naive_gemv(const __half* a, const __half* b, float* c, int k) {
  __shared__ __half a_shared[64];
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int bk = 0; bk < k / 64; ++bk) {
    for (int tk = 0; tk < 64; ++tk) {
#ifdef DIFFERENT_VALUE
      a_shared[tk] = threadIdx.x == 3 ? __float2half(0.f) : a[bk * 64 + tk];  // thread 3 stages zeros
#else
      a_shared[tk] = a[bk * 64 + tk];
#endif
    }
    __syncthreads();
    for (int tk = 0; tk < 64; ++tk) acc += __half2float(a_shared[tk]) * __half2float(b[(long)n * k + bk * 64 + tk]);
    __syncthreads();
  }
  c[n] = acc;
}
