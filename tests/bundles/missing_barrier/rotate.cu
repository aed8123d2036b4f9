// Planted bug: a block loads a tile into shared memory and each thread reads its neighbour's element,
// with the __syncthreads() between the two left out (RAW race). With -DWITH_BARRIER it is correct.
__global__ void rotate(const float* in, float* out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 256 + t];
#ifdef WITH_BARRIER
  __syncthreads();
#endif
  out[blockIdx.x * 256 + t] = tile[(t + 1) % 256];
}
