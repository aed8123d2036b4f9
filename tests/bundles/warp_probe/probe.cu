// Shows the warp size the executor runs: each thread records warpSize, the thread index of its warp's
// lane 0 (a broadcast shuffle) and the sum of thread indices over its warp (a butterfly reduction).
__global__ void probe(int* size, int* leader, int* warp_sum) {
  int t = threadIdx.x;
  size[t] = warpSize;
  leader[t] = __shfl_sync(0xffffffff, t, 0);
  int s = t;
  for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
  warp_sum[t] = s;
}
