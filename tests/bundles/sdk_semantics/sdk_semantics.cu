// What kernels take from the CUDA SDK, written the way people write it: <cstdio>, <cassert>, <cmath> included,
// device printf and assert, max/min of floats, doubles and mixed types. The values are compared with the
// SDK's definitions in the test (prelude and SDK headers alike). Built with -DFAILING_ASSERT, one thread's
// assert fails.
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern "C" __global__ void sdk_semantics(const float* x, float* f_out, double* d_out, int* i_out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = x[n - 1 - i];
  assert(n > 0);
#ifdef FAILING_ASSERT
  assert(i != 5);
#endif
  if (i == 0) printf("sdk_semantics: %d elements, x[0] = %f\n", n, a);
  f_out[4 * i + 0] = max(a, b);
  f_out[4 * i + 1] = min(a, b);
  f_out[4 * i + 2] = max(a, 0.25f) - min(b, -0.25f);
  f_out[4 * i + 3] = fabsf(a) + abs(b);
  d_out[2 * i + 0] = max((double)a, b);        // mixed double and float: the double overload
  d_out[2 * i + 1] = min(a, (double)b * 2.0);  // mixed float and double
  i_out[2 * i + 0] = max(i - 3, 2);
  i_out[2 * i + 1] = (int)min(7u, (unsigned)i);
}
