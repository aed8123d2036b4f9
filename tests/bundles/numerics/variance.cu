// Row standard deviation in one pass, E[x^2] - E[x]^2, as layernorm code is often written. The planted bug:
// for a constant row the two terms cancel and rounding leaves them slightly negative, so sqrtf gives NaN;
// the fixed twin clamps the variance at zero and adds an epsilon before the square root.
extern "C" __global__ void __launch_bounds__(64) row_std(const float* __restrict__ x, float* __restrict__ out) {
  const float* row = x + threadIdx.x * 64;
  float sum = 0.0f, squares = 0.0f;
  for (int j = 0; j < 64; ++j) {
    sum += row[j];
    squares += row[j] * row[j];
  }
  float mean = sum / 64.0f;
  float variance = squares / 64.0f - mean * mean;
  out[threadIdx.x] = sqrtf(variance);
}

extern "C" __global__ void __launch_bounds__(64) row_std_clamped(const float* __restrict__ x, float* __restrict__ out) {
  const float* row = x + threadIdx.x * 64;
  float sum = 0.0f, squares = 0.0f;
  for (int j = 0; j < 64; ++j) {
    sum += row[j];
    squares += row[j] * row[j];
  }
  float mean = sum / 64.0f;
  float variance = squares / 64.0f - mean * mean;
  out[threadIdx.x] = sqrtf(fmaxf(variance, 0.0f) + 1e-5f);
}
