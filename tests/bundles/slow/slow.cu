// A correct kernel that takes a while on the CPU executor: every block runs ROUNDS rounds of a tiled
// stencil with a barrier per round, so a short --timeout stops it while it still progresses (slow, not
// hung). Built with -DONE_BLOCK_SPINS, block 3 waits for a flag no thread ever sets: a hang among blocks
// that finish.
extern "C" __global__ void smooth(const float* in, float* out, int* flag, int rounds) {
  __shared__ float tile[2][258];
  int t = threadIdx.x, base = blockIdx.x * 256;
  tile[0][t + 1] = in[base + t];
  if (t == 0) tile[0][0] = tile[0][257] = 0.f;
  if (t == 0) tile[1][0] = tile[1][257] = 0.f;
  __syncthreads();
#ifdef ONE_BLOCK_SPINS
  if (blockIdx.x == 3)
    while (*(volatile int*)flag == 0) {
    }
#endif
  for (int r = 0; r < rounds; ++r) {
    int from = r & 1;
    tile[from ^ 1][t + 1] = 0.25f * tile[from][t] + 0.5f * tile[from][t + 1] + 0.25f * tile[from][t + 2];
    __syncthreads();
  }
  out[base + t] = tile[rounds & 1][t + 1];
}
