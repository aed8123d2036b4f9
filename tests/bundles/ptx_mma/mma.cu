// A 16x8x16 tensor-core tile the way TileLang's templates do it: cp.async from global to shared,
// ldmatrix (x4 for A, x2.trans for B) into fragments, mma.sync m16n8k16 with fp32 accumulation.
// frag records lane l's four A registers, so the test can check ldmatrix's layout lane by lane.
__global__ void mma_tile(const half* A, const half* B, float* C, unsigned* frag) {
  __shared__ __align__(16) half As[16][16];
  __shared__ __align__(16) half Bs[16][8];
  int lane = threadIdx.x;
  unsigned as = (unsigned)__cvta_generic_to_shared(&As[0][0]);
  unsigned bs = (unsigned)__cvta_generic_to_shared(&Bs[0][0]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(as + lane * 16), "l"(A + lane * 8));
#ifndef CP_ASYNC_DST_BUG
  if (lane < 16) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(bs + lane * 16), "l"(B + lane * 8));
#else  // planted bug (tests/bundles/ptx_mma/cp_async_oob.toml): the B copy lands 16 rows further on, past the end of Bs
  if (lane < 16) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(bs + (lane + 16) * 16), "l"(B + lane * 8));
#endif
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group %0;\n" ::"n"(0));
  __syncthreads();

  unsigned a[4], b[2];
  unsigned arow = as + ((lane % 16) * 16 + (lane / 16) * 8) * 2;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(arow));
  unsigned brow = bs + (lane % 16) * 16;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n" : "=r"(b[0]), "=r"(b[1]) : "r"(brow));
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]));
  int g = lane / 4, t = lane % 4;
  C[g * 8 + 2 * t] = d[0];
  C[g * 8 + 2 * t + 1] = d[1];
  C[(g + 8) * 8 + 2 * t] = d[2];
  C[(g + 8) * 8 + 2 * t + 1] = d[3];
  for (int i = 0; i < 4; ++i) frag[lane * 4 + i] = a[i];
}
