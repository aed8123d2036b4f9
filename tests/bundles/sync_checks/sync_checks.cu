// Warp-mask and named-barrier checks: planted bugs and their correct twins.

// A half-warp mask (lanes 0-15) on a shuffle the whole warp runs: lanes 16-31 are not in their own mask.
__global__ void mask_leaves_out_lanes(const float* in, float* out) {
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0x0000ffffu, v, 1);
  out[threadIdx.x] = v;
}

// The upper half-warp leaves early; the lower half reduces with the full mask, naming lanes that exited.
__global__ void mask_names_exited_lanes(const float* in, float* out) {
  int lane = threadIdx.x % 32;
  if (lane >= 16) return;
  float v = in[threadIdx.x];
  for (int o = 8; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  out[threadIdx.x] = v;
}

// Correct twin: the mask names exactly the lanes that stay.
__global__ void mask_matches_lanes(const float* in, float* out) {
  int lane = threadIdx.x % 32;
  if (lane >= 16) return;
  float v = in[threadIdx.x];
  for (int o = 8; o > 0; o /= 2) v += __shfl_xor_sync(0x0000ffffu, v, o);
  out[threadIdx.x] = v;
}

// A producer/consumer pair on named barrier 1 whose count is wrong: 64 threads take part (warp 0 waits,
// warp 1 arrives), but the count says 96, so the barrier never completes.
__global__ void named_barrier_wrong_count(const float* in, float* out) {
  __shared__ float stage[32];
  int t = threadIdx.x;
  if (t >= 32) {
    stage[t - 32] = in[t];
    asm volatile("bar.arrive 1, 96;");
  } else {
    asm volatile("bar.sync 1, 96;");
    out[t] = stage[t];
  }
}

// Correct twin: the count is the 64 threads that take part.
__global__ void named_barrier_right_count(const float* in, float* out) {
  __shared__ float stage[32];
  int t = threadIdx.x;
  if (t >= 32) {
    stage[t - 32] = in[t];
    asm volatile("bar.arrive 1, 64;");
  } else {
    asm volatile("bar.sync 1, 64;");
    out[t] = stage[t];
  }
}
