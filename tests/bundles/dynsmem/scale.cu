// Dynamic shared memory: each block stages its slice in `extern __shared__` memory sized at launch,
// then writes it back reversed and scaled.
__global__ void reverse_scale(const half* in, half* out, float alpha, int n) {
  extern __shared__ half stage[];
  int base = blockIdx.x * blockDim.x;
  int i = base + threadIdx.x;
  stage[threadIdx.x] = i < n ? in[i] : half(0.0f);
  __syncthreads();
  int j = base + blockDim.x - 1 - threadIdx.x;
  if (j < n) out[j] = __float2half(alpha * __half2float(stage[threadIdx.x]));
}
