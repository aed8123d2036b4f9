// bfloat16 arithmetic and comparisons as the CUDA SDK compiles them below sm_90 (cuda_bf16.hpp): add, sub
// and mul as one fma with a constant register (1, -1 or -0), comparisons by widening both halves to f32.
#include <cuda_bf16.h>

__global__ void bf16_sm80(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* sum, __nv_bfloat16* diff,
                          __nv_bfloat16* prod, __nv_bfloat162* pairs, int* compare, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  sum[i] = __hadd(a[i], b[i]);
  diff[i] = __hsub(a[i], b[i]);
  prod[i] = __hmul(a[i], b[i]);
  __nv_bfloat162 x = __halves2bfloat162(a[i], b[i]), y = __halves2bfloat162(b[i], a[i]);
  pairs[3 * i] = __hadd2(x, y);
  pairs[3 * i + 1] = __hsub2(x, y);
  pairs[3 * i + 2] = __hmul2(x, y);
  compare[3 * i] = __heq(a[i], a[i]);
  compare[3 * i + 1] = __hlt(a[i], b[i]);
  compare[3 * i + 2] = __hgeu(a[i], b[i]);
}
