// Row softmax, one thread per row of 64 logits. The planted bug: exp of the raw logits, which overflow
// float for logits above 88.7; its twin subtracts the row maximum first.
extern "C" __global__ void __launch_bounds__(64) softmax_naive(const float* __restrict__ x, float* __restrict__ y) {
  const float* row = x + threadIdx.x * 64;
  float sum = 0.0f;
  for (int j = 0; j < 64; ++j) sum += expf(row[j]);
  for (int j = 0; j < 64; ++j) y[threadIdx.x * 64 + j] = expf(row[j]) / sum;
}

extern "C" __global__ void __launch_bounds__(64) softmax_stable(const float* __restrict__ x, float* __restrict__ y) {
  const float* row = x + threadIdx.x * 64;
  float m = row[0];
  for (int j = 1; j < 64; ++j) m = fmaxf(m, row[j]);
  float sum = 0.0f;
  for (int j = 0; j < 64; ++j) sum += expf(row[j] - m);
  for (int j = 0; j < 64; ++j) y[threadIdx.x * 64 + j] = expf(row[j] - m) / sum;
}
