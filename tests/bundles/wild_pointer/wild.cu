// Planted bug: a pointer made from an integer argument, not from any buffer: no check family can check it.
// On a GPU it faults; on the CPU executor containment skips it and reports a wild-access (exit 1).
__global__ void poke(float* out, long long where) {
  float* p = reinterpret_cast<float*>(where);
  out[threadIdx.x] = 1.0f;
  if (threadIdx.x == 5) *p = 42.0f;
}
