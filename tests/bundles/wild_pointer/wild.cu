// Planted bug: a pointer made from an integer argument, not from any buffer: nothing can check it,
// and it faults. tile-doctor must report the fault (exit 3) and survive.
__global__ void poke(float* out, long long where) {
  float* p = reinterpret_cast<float*>(where);
  out[threadIdx.x] = 1.0f;
  if (threadIdx.x == 5) *p = 42.0f;
}
