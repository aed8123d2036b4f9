// Planted bugs: vector loads through pointers that are not 16-byte aligned.
__global__ void vec_copy(const float* in, float* out, int offset) {
  __shared__ float4 tile[32];
  int t = threadIdx.x;
  const float4* src = reinterpret_cast<const float4*>(in + offset) + t;  // bug: offset = 1 breaks alignment
  tile[t] = *src;
  __syncthreads();
  float4 v = *reinterpret_cast<float4*>(reinterpret_cast<float*>(tile) + 2 * (t & 1));  // bug: 8-byte aligned
  out[t] = v.x + v.y + v.z + v.w;
}
