// A damped recurrence, as a time-stepping or attention-decay kernel has it: each step multiplies the state
// by a factor below one and stores it (and the final state), so the values end in float's subnormal range and then at zero while
// exact arithmetic keeps a 1e-250. Correct: every step is one rounding; no drift is reported. Built with
// -DHALF_SUM, the kernel also sums the states in a half accumulator, which drifts (a planted twin).
extern "C" __global__ void decay(const float* x0, float* states, float* final_state, __half* sums, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = x0[i];
#ifdef HALF_SUM
  __half s = __float2half(0.f);
#endif
  for (int k = 0; k < steps; ++k) {
    x = x * 0.0625f + 1e-30f * (k == 0);
    states[k * blockDim.x * gridDim.x + i] = x;
#ifdef HALF_SUM
    s = __hadd(s, __float2half(x * 4096.f + 1.1f));
#endif
  }
  final_state[i] = x;  // exact arithmetic: about 1e-250; float: zero
#ifdef HALF_SUM
  sums[i] = s;
#else
  sums[i] = __float2half(x);
#endif
}
