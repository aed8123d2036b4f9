// Each thread keeps 96 running sums live across its loop, so the assembler gives it more than 64 registers
// when nothing bounds it: 1024 threads of that are more registers than a block may have (64K), and the
// driver refuses the launch. With __launch_bounds__(1024) the assembler keeps to 64 and spills instead.
#define SUMS 96

__device__ __forceinline__ void running_sums(const float* in, float* out, int n) {
  float acc[SUMS];
#pragma unroll
  for (int j = 0; j < SUMS; ++j) acc[j] = 0.0f;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < n; ++i) {
    float x = in[(t + i) % n];
#pragma unroll
    for (int j = 0; j < SUMS; ++j) acc[j] = acc[j] * x + static_cast<float>(j);
  }
  float s = 0.0f;
#pragma unroll
  for (int j = 0; j < SUMS; ++j) s += acc[j];
  out[t] = s;
}

extern "C" __global__ void many_sums(const float* in, float* out, int n) { running_sums(in, out, n); }

extern "C" __global__ void __launch_bounds__(1024) many_sums_bounded(const float* in, float* out, int n) {
  running_sums(in, out, n);
}
