// Device code that stops the kernel, as people write it: an assert guarding an index (it fails when the
// launch has more threads than the data), a __trap on an impossible state, and a printf to see a value;
// and the assert CUTLASS compiles where an instruction is missing for the architecture (fp8 mma below sm_89).
__global__ void scale(float* out, const float* in, int n, int trap_at, int guard_at) {
  int i = threadIdx.x;
  if (i == 3) printf("thread %d: n=%d in=%.2f\n", i, n, in[i]);
  assert(i < n);
  if (i == trap_at) __trap();
  if (i == guard_at) assert(0 && "Attempting to use SM89_16x8x32_F32E4M3E4M3F32_TN without CUTE_ARCH_MMA_F32_SM89_ENABLED");
  out[i] = 2.0f * in[i];
}
