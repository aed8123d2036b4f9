// Planted bug: a named barrier told to wait for 128 threads in a block of 64. Every thread waits.
__global__ void named_barrier(float* out) {
  out[threadIdx.x] = threadIdx.x;
  __nvvm_barrier_sync_cnt(1, 128);
  out[threadIdx.x] += 1.0f;
}
