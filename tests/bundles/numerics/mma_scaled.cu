// One warp's mma.sync m16n8k16 (f16 inputs, f32 accumulators) whose A fragment the kernel computes itself:
// A * 3/7 in float, rounded to half pairs by cvt.rn.f16x2.f32. A's registers then carry shadows of their
// own (the unrounded products), so D's shadow is the warp's software sum of the shadows' products, and the
// drift of D is A's rounding. B is loaded as raw half bits (shadows: the values).
extern "C" __global__ void __launch_bounds__(32) mma_scaled(const float* __restrict__ A, const __half* __restrict__ Bh,
                                                            float* __restrict__ D) {
  const unsigned short* B = reinterpret_cast<const unsigned short*>(Bh);  // the halves' bits
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  unsigned a[4], b[2];
  for (int r = 0; r < 4; ++r) {
    int row = g + 8 * (r % 2), col = 2 * t + 8 * (r / 2);
    float lo = A[row * 16 + col] * (3.0f / 7.0f), hi = A[row * 16 + col + 1] * (3.0f / 7.0f);
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(a[r]) : "f"(hi), "f"(lo));
  }
  for (int r = 0; r < 2; ++r) {
    int k = 2 * t + 8 * r;
    b[r] = (unsigned)B[k * 8 + g] | ((unsigned)B[(k + 1) * 8 + g] << 16);
  }
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
  for (int e = 0; e < 4; ++e) D[(g + 8 * (e / 2)) * 8 + 2 * t + e % 2] = d[e];
}
