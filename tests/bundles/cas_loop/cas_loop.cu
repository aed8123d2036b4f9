// Atomic adds built from compare-and-swap, as the CUDA programming guide writes atomicAdd for double and the
// SDK's bfloat16 atomicAdd below sm_90 is written: a plain first read, then atomicCAS until no other thread
// changed the word between. Every thread of every block adds into one sum: no race. The twin reads and
// writes the sum plainly: a lost update, a race.
__device__ double add_by_cas(double* address, double val) {
  unsigned long long* word = (unsigned long long*)address;
  unsigned long long old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

extern "C" __global__ void sum_by_cas(const double* x, double* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) add_by_cas(sum, x[i]);
}

extern "C" __global__ void sum_plainly(const double* x, double* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) *sum = *sum + x[i];
}
