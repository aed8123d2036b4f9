// Each block sums a row of TILE floats staged in dynamic shared memory: correct, but the tile grows with
// TILE and MetaX allows 64 KiB of shared memory a block.
__global__ void row_sums(const float* x, float* sums, int tile) {
  extern __shared__ float row[];
  for (int c = threadIdx.x; c < tile; c += blockDim.x) row[c] = x[blockIdx.x * tile + c];
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int c = 0; c < tile; ++c) s += row[c];
    sums[blockIdx.x] = s;
  }
}
