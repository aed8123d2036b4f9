// 4-bit tensor-core products as dequantised int4 GEMMs issue them: mma.sync m16n8k64 with s4 inputs and
// m16n8k32 with u4 x s4, s32 accumulators. Each lane packs its fragments from the logical matrices A (16xK,
// one value per int8) and B (Kx8) by the PTX ISA's layout for 4-bit types (e = 8 values a register, lowest
// nibble first): A register r: row g + 8(r%2), columns 8t + 32(r/2) + i; B register r: rows 8t + 32r + i,
// column g (g = lane / 4, t = lane % 4). D = A·B + C, read back by the accumulator layout.
__device__ unsigned pack_nibbles(const signed char* v, int stride) {
  unsigned word = 0;
  for (int i = 0; i < 8; ++i) word |= (unsigned)(v[i * stride] & 0xf) << (4 * i);
  return word;
}

template <int K>
__device__ void fragments(const signed char* A, const signed char* B, unsigned* a, unsigned* b, int lane) {
  int g = lane / 4, t = lane % 4;
  for (int r = 0; r < K / 16; ++r) a[r] = pack_nibbles(A + (g + 8 * (r % 2)) * K + 8 * t + 32 * (r / 2), 1);
  for (int r = 0; r < K / 32; ++r) b[r] = pack_nibbles(B + (8 * t + 32 * r) * 8 + g, 8);
}

__device__ void store_d(int* D, const int* d, int lane) {
  int g = lane / 4, t = lane % 4;
  D[g * 8 + 2 * t] = d[0];
  D[g * 8 + 2 * t + 1] = d[1];
  D[(g + 8) * 8 + 2 * t] = d[2];
  D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

// A: 16x64 s4 values, B: 64x8 s4 values, C: 16x8; D64 = A·B + C. Then the first 32 columns of A taken as u4
// (A & 15) against B's first 32 rows: D32 = (A mod 16)·B[0:32] + C.
extern "C" __global__ void int4_mma(const signed char* A, const signed char* B, const int* C, int* D64, int* D32) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  int c[4] = {C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1], C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]};
  unsigned a[4], b[2];
  int d[4];
  fragments<64>(A, B, a, b, lane);
  asm volatile(
      "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  store_d(D64, d, lane);

  __shared__ signed char A32[16 * 32];
  for (int i = lane; i < 16 * 32; i += 32) A32[i] = A[(i / 32) * 64 + i % 32];
  __syncwarp();
  fragments<32>(A32, B, a, b, lane);
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  store_d(D32, d, lane);
}
