// A tile copied row by row with cp.async, then each thread reads its neighbour's row. The copy is in flight
// until its own thread waits for it, so the wait must come before the barrier that orders the neighbour's
// read. With -DWAIT_AFTER_BARRIER the thread waits only after the barrier: on the GPU the neighbour may read
// the row before it lands (a race between the copy's write and the read).
__global__ void neighbour_rows(const float* in, float* out) {
  __shared__ __align__(16) float tile[64][4];
  int r = threadIdx.x;  // one 16-byte row per thread
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(&tile[r][0])),
               "l"(in + 4 * r));
  asm volatile("cp.async.commit_group;" ::);
#ifndef WAIT_AFTER_BARRIER
  asm volatile("cp.async.wait_group 0;" ::);
#endif
  __syncthreads();
#ifdef WAIT_AFTER_BARRIER
  asm volatile("cp.async.wait_group 0;" ::);
#endif
  int n = (r + 1) % 64;
  for (int c = 0; c < 4; ++c) out[4 * r + c] = tile[n][c];
}
