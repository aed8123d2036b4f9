// Copies 16 elements an iteration and has no tail: right when N is a multiple of 16, eight elements past
// the end when N is an odd multiple of 8 (shapes its author only ever made multiples of 8).
__global__ void copy16(const float* x, float* y, int n) {
  for (int base = threadIdx.x * 16; base < n; base += blockDim.x * 16)
    for (int j = 0; j < 16; ++j) y[base + j] = x[base + j];
}
