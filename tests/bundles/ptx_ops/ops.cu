// One warp exercising the rest of the inline-PTX catalogue, fragments built from row-major global
// matrices with the PTX ISA's layouts (g = lane / 4, t = lane % 4):
//   mma m16n8k16 bf16 -> f32, m16n8k16 f16 -> f16, m16n8k8 f16 -> f32, m16n8k8 tf32 -> f32,
//   stmatrix x4 (writes A's fragments back to shared memory), shfl.sync, redux.sync, bar.sync/bar.arrive.
__device__ unsigned pack16(unsigned short lo, unsigned short hi) { return lo | ((unsigned)hi << 16); }
__device__ unsigned short bits(half h) { return __half_as_ushort(h); }
__device__ unsigned short bits(__nv_bfloat16 b) { unsigned short u; __builtin_memcpy(&u, &b, 2); return u; }

template <class T>  // A fragment register r of a 16xK row-major matrix (16-bit types)
__device__ unsigned afrag(const T* A, int K, int lane, int r) {
  int row = lane / 4 + 8 * (r % 2), col = 2 * (lane % 4) + 8 * (r / 2);
  return pack16(bits(A[row * K + col]), bits(A[row * K + col + 1]));
}
template <class T>  // B fragment register r of a Kx8 row-major matrix (16-bit types)
__device__ unsigned bfrag(const T* B, int lane, int r) {
  int k = 2 * (lane % 4) + 8 * r, n = lane / 4;
  return pack16(bits(B[k * 8 + n]), bits(B[(k + 1) * 8 + n]));
}
__device__ void storeC(float* D, int lane, const float* d) {
  int g = lane / 4, t = lane % 4;
  D[g * 8 + 2 * t] = d[0];
  D[g * 8 + 2 * t + 1] = d[1];
  D[(g + 8) * 8 + 2 * t] = d[2];
  D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

__global__ void ptx_ops(const half* A, const half* B, const __nv_bfloat16* Ab, const __nv_bfloat16* Bb, const float* At,
                        const float* Bt, float* Dbf, half* Dh, float* Dk8, float* Dtf, half* Aback, int* shfl, int* red,
                        int* order, int* vote, half* packh, __nv_bfloat16* packb) {
  __shared__ __align__(16) half As[16][16];
  __shared__ int turn;
  int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  float z[4] = {0.f, 0.f, 0.f, 0.f}, d[4];
  if (threadIdx.x < 32) {
    unsigned a[4], b[2];
    for (int r = 0; r < 4; ++r) a[r] = afrag(Ab, 16, lane, r);
    for (int r = 0; r < 2; ++r) b[r] = bfrag(Bb, lane, r);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(z[0]), "f"(z[1]), "f"(z[2]), "f"(z[3]));
    storeC(Dbf, lane, d);

    for (int r = 0; r < 4; ++r) a[r] = afrag(A, 16, lane, r);
    for (int r = 0; r < 2; ++r) b[r] = bfrag(B, lane, r);
    unsigned h[2], hz = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(h[0]), "=r"(h[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(hz), "r"(hz));
    for (int r = 0; r < 2; ++r) {
      Dh[(g + 8 * r) * 8 + 2 * t] = __ushort_as_half((unsigned short)(h[r] & 0xffff));
      Dh[(g + 8 * r) * 8 + 2 * t + 1] = __ushort_as_half((unsigned short)(h[r] >> 16));
    }

    // m16n8k8: the first 8 columns of A and rows of B
    unsigned a8[2] = {afrag(A, 16, lane, 0), afrag(A, 16, lane, 1)}, b8 = bfrag(B, lane, 0);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a8[0]), "r"(a8[1]), "r"(b8), "f"(z[0]), "f"(z[1]), "f"(z[2]), "f"(z[3]));
    storeC(Dk8, lane, d);

    float ta[4], tb[2];  // tf32 m16n8k8 from fp32 matrices At (16x8) and Bt (8x8)
    for (int r = 0; r < 4; ++r) ta[r] = At[(g + 8 * (r % 2)) * 8 + t + 4 * (r / 2)];
    for (int r = 0; r < 2; ++r) tb[r] = Bt[(t + 4 * r) * 8 + g];
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(__float_as_uint(ta[0])), "r"(__float_as_uint(ta[1])), "r"(__float_as_uint(ta[2])),
                   "r"(__float_as_uint(ta[3])), "r"(__float_as_uint(tb[0])), "r"(__float_as_uint(tb[1])), "f"(z[0]),
                   "f"(z[1]), "f"(z[2]), "f"(z[3]));
    storeC(Dtf, lane, d);

    // stmatrix x4: A's fragments back into a 16x16 shared tile, rows given as ldmatrix would read them
    for (int r = 0; r < 4; ++r) a[r] = afrag(A, 16, lane, r);
    unsigned row = (unsigned)__cvta_generic_to_shared(&As[lane % 16][(lane / 16) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(row), "r"(a[0]), "r"(a[1]),
                 "r"(a[2]), "r"(a[3]));
    __syncwarp();
    for (int i = lane; i < 256; i += 32) Aback[i] = As[i / 16][i % 16];

    int v;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(v) : "r"(lane * 10), "r"(3), "r"(0x1f), "r"(0xffffffff));
    shfl[lane] = v;
    asm volatile("redux.sync.add.s32 %0, %1, %2;" : "=r"(v) : "r"(lane - 5), "r"(0xffffffff));
    red[lane] = v;
    asm volatile("redux.sync.max.s32 %0, %1, %2;" : "=r"(v) : "r"(lane - 5), "r"(0xffffffff));
    red[32 + lane] = v;

    // Votes as compound asm (a predicate cannot be a C++ operand: setp makes it, selp reads it out).
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
                 : "=r"(v) : "r"(lane % 3 == 0), "r"(0xffffffff));
    vote[lane] = v;
    asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %1, 0; vote.sync.all.pred q, p, %2; selp.b32 %0, 1, 0, q; }"
                 : "=r"(v) : "r"(lane < 40), "r"(0xffffffff));
    vote[32 + lane] = v;
    asm volatile("{ .reg .pred p, q; setp.ne.b32 p, %1, 0; vote.sync.any.pred q, p, %2; selp.b32 %0, 1, 0, q; }"
                 : "=r"(v) : "r"(lane == 31), "r"(0xffffffff));
    vote[64 + lane] = v;
    // cvt.rn.{f16,bf16}x2.f32 d, hi, lo: the low half rounds 1 + lane/4096 to the nearest fp16 / bf16.
    unsigned p;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(lane * 0.5f), "f"(1.0f + lane / 4096.0f));
    reinterpret_cast<unsigned*>(packh)[lane] = p;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(lane * 0.5f), "f"(1.0f + lane / 256.0f));
    reinterpret_cast<unsigned*>(packb)[lane] = p;
  }
  // Named barrier 1 with 64 threads: warp 1 produces `turn`, arrives; warp 0 waits for it.
  if (threadIdx.x >= 32) {
    if (threadIdx.x == 32) turn = 7;
    asm volatile("bar.arrive 1, 64;");
  } else {
    asm volatile("bar.sync 1, 64;");
    order[lane] = turn;
  }
}
