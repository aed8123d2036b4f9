// Planted bug: the dynamic shared array is sized for one float per thread (launch.shared = 4 * T) but
// each thread writes two.
__global__ void pairs(const float* in, float* out) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  buf[2 * t] = in[t];
  buf[2 * t + 1] = -in[t];  // bug: beyond launch.shared for the upper half of the block
  __syncthreads();
  out[t] = buf[t];
}
