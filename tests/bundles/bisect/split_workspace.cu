// A sum that splits its reduction into chunks of 4096 when K is larger and keeps the partial sums in a
// workspace. The caller sized the workspace for the shapes it tried: none, passed as a null pointer.
__global__ void sum_split(const float* x, float* out, int k, long long workspace) {
  float* partial = reinterpret_cast<float*>(workspace);
  int chunks = (k + 4095) / 4096;
  float s = 0;
  for (int c = threadIdx.x; c < k; c += blockDim.x) s += x[c];
  if (chunks > 1) partial[threadIdx.x] = s;  // the split path: the workspace is null
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = s;
    if (chunks > 1)
      for (int t = 1; t < blockDim.x; ++t) total += partial[t];
    out[0] = total;
  }
}
