// Planted bug: thread 0 waits for a flag nobody sets; the others wait for thread 0 at the barrier.
__global__ void spin(volatile int* flag, float* out) {
  if (threadIdx.x == 0)
    while (flag[0] == 0) {
    }
  __syncthreads();
  out[threadIdx.x] = 1.0f;
}
