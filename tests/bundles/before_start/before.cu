// Planted bugs: thread 0 reads one element before the start of a global buffer and of a shared array
// (a stencil's missing left-edge guard).
__global__ void left_neighbour(const float* in, float* out) {
  __shared__ float pad[32];
  __shared__ float row[32];
  int t = threadIdx.x;
  row[t] = in[t];
  pad[t] = 0.0f;
  __syncthreads();
  out[t] = row[t - 1] + in[t - 1];  // bug: t = 0 reads row[-1] and in[-1]
}
