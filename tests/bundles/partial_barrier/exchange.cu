// A producer/consumer hand-off between warps through a named barrier, as TileLang's warp-specialised
// kernels write it (tl::__sync_thread_partial): threads 0-63 stage a tile in shared memory, threads 64-127
// read it reversed; `bar.sync 1, 128` orders just those 128 threads while threads 128-255 scale their own
// row. Correct on NVIDIA. On MetaX the partial barrier is empty: the two 64-lane waves race.
extern "C" __global__ void exchange(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[64];
  const int t = threadIdx.x;
  if (t < 128) {
    if (t < 64) tile[t] = in[t];
    asm volatile("bar.sync 1, 128;" ::: "memory");
    if (t >= 64) out[t - 64] = tile[127 - t];
  } else {
    out[t - 64] = 2.0f * in[t - 64];
  }
}
