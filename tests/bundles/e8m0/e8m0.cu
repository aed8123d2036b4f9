// The MX scale type as the CUDA SDK converts to it (cuda_fp8.hpp, 12.8+): __nv_fp8_e8m0 from float rounds up
// to a power of two (through bfloat16, saturating), from double first narrows with a sticky bit, written as
// PTX below sm_100 (cvt.rn.f32.f64, cvt.f64.f32); back to float is exact. Thread i converts values[i].
#include <cuda_fp8.h>

__global__ void e8m0_round_trip(const float* values, const double* wide, unsigned char* fromFloat,
                                unsigned char* fromDouble, float* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8_e8m0 a(values[i]);
  __nv_fp8_e8m0 b(wide[i]);
  fromFloat[i] = a.__x;
  fromDouble[i] = b.__x;
  back[i] = static_cast<float>(a);
}
