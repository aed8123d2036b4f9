// Device code that stops the kernel, as people write it: an assert guarding an index (it fails when the
// launch has more threads than the data), a __trap on an impossible state, and a printf to see a value.
__global__ void scale(float* out, const float* in, int n, int trap_at) {
  int i = threadIdx.x;
  if (i == 3) printf("thread %d: n=%d in=%.2f\n", i, n, in[i]);
  assert(i < n);
  if (i == trap_at) __trap();
  out[i] = 2.0f * in[i];
}
