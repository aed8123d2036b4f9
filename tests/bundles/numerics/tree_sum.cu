// Block sums of 1024 halves by a shared-memory tree, ten halving steps. Every step rounds its partial sums
// to half, so the error grows with the steps; the partial sums at step s carry about s units of half's
// roundoff. The float twin keeps the tree in float and rounds once.
extern "C" __global__ void __launch_bounds__(1024) tree_sum_half(const __half* __restrict__ x, __half* __restrict__ sums) {
  __shared__ __half partial[1024];
  unsigned t = threadIdx.x;
  partial[t] = x[blockIdx.x * 1024 + t];
  __syncthreads();
  for (unsigned stride = 512; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] = partial[t] + partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

extern "C" __global__ void __launch_bounds__(1024) tree_sum_float(const __half* __restrict__ x, __half* __restrict__ sums) {
  __shared__ float partial[1024];
  unsigned t = threadIdx.x;
  partial[t] = __half2float(x[blockIdx.x * 1024 + t]);
  __syncthreads();
  for (unsigned stride = 512; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = __float2half(partial[0]);
}
