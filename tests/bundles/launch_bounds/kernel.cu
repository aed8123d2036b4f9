// One block of 1024 threads scales a row. Written without __launch_bounds__ (as hand-written kernels often
// are), MACA builds it for 512 threads and recompiles it at launch; the bounded twin says 1024.
extern "C" __global__ void scale_rows(const float* __restrict__ in, float* __restrict__ out, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = s * in[i];
}

extern "C" __global__ void __launch_bounds__(1024) scale_rows_bounded(const float* __restrict__ in,
                                                                       float* __restrict__ out, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = s * in[i];
}
