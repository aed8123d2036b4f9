// Planted bug: 128 threads index a 64-entry __shared__ array; threads 64..127 run into the next array.
__global__ void stage_two(const float* in, float* out) {
  __shared__ float first[64];
  __shared__ float second[64];
  int t = threadIdx.x;
  first[t] = in[t];  // bug: t goes up to 127
  if (t < 64) second[t] = 2.0f * in[t];
  __syncthreads();
  out[t] = first[t % 64] + second[t % 64];
}
