// The bit-level PTX real programs write: lop3.b32 (a dequantising GEMV's int4 -> half trick: the nibble
// masked into the mantissa of 1024.0h, the table as a literal and as an "n" operand) and the fp8 pair
// conversions (cvt.rn.satfinite[.relu].{e4m3,e5m2}x2.f32, and e4m3x2 back to f16x2). Eight threads, each
// its own inputs; every result goes out as raw bits.
__global__ void ptx_bits(const unsigned* a, const unsigned* b, const unsigned* c, const float* values,
                         unsigned* lop, unsigned* fp8, unsigned* halves) {
  int i = threadIdx.x;
  unsigned any, xor3, dequant;
  asm("lop3.b32 %0, %1, %2, %3, 0xea;" : "=r"(any) : "r"(a[i]), "r"(b[i]), "r"(c[i]));  // (a & b) | c
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(xor3) : "r"(a[i]), "r"(b[i]), "r"(c[i]), "n"(0x96));
  // int4 -> half2 as dequantising kernels do it: (w & 0x000f000f) | 0x64006400 is 1024 + nibble per half
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(dequant) : "r"(a[i] >> (4 * (i & 3))), "n"(0x000f000f), "n"(0x64006400), "n"(0xea));
  lop[3 * i] = any;
  lop[3 * i + 1] = xor3;
  lop[3 * i + 2] = dequant;
  float hi = values[i], lo = values[7 - i];
  unsigned short e4, e4relu, e5;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(e4) : "f"(hi), "f"(lo));
  asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(e4relu) : "f"(hi), "f"(lo));
  asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(e5) : "f"(hi), "f"(lo));
  fp8[3 * i] = e4;
  fp8[3 * i + 1] = e4relu;
  fp8[3 * i + 2] = e5;
  unsigned back;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(back) : "h"(e4));
  halves[i] = back;
}
