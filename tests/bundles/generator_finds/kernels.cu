// What the kernel generator (tests/kernel_gen) found, kept as kernels written the way people write them.
// products_used_twice: a product used by an add and by something else; the back end fused it into an fma
// only where the checks added no use, so instrumented and uninstrumented outputs differed by 1 ulp.
// helper_reads_shared: a helper that is not inlined reads a __shared__ array through a plain pointer; the
// race and init checks skipped it. counter_reset: thread 0 resets a shared counter that every thread then
// increments atomically; with -DNO_BARRIER the reset may land after other threads' increments, which the
// race check missed (the thread's own atomic replaced its plain write in the shadow).

extern "C" __global__ void products_used_twice(const float* x, float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = x[(i + 1) % n];
  float p = a * 0.3f;         // used by the add below and by the store to z
  y[i] = p + b * 1.7f;        // fused on the GPU: fma(a, 0.3, b * 1.7) or fma(b, 1.7, p)
  z[i] = p - b * 0.1f + 1.0f;
}

__device__ __noinline__ float read_slot(const float* slots, int i) { return slots[i]; }

extern "C" __global__ void helper_reads_shared(const float* x, float* y, int n) {
  __shared__ float slots[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  slots[threadIdx.x] = i < n ? x[i] : 0.0f;
#ifndef NO_BARRIER
  __syncthreads();
#endif
  if (i < n) y[i] = read_slot(slots, (threadIdx.x + 1) % 64);
}

extern "C" __global__ void counter_reset(const int* x, int* y, int n) {
  __shared__ int count;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) count = 0;
#ifndef NO_BARRIER
  __syncthreads();
#endif
  if (i < n && x[i] > 0) atomicAdd(&count, 1);
  __syncthreads();
  if (i < n) y[i] = count;
}
