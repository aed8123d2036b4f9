// A 3-stage GEMM tile tuned for Hopper: 128x128 output tiles with BK = 64, every stage's A and B tiles
// kept in dynamic shared memory. 3 * (128*64 + 64*128) * 2 bytes = 98304 bytes per block: fine on an
// H100/H200 (227 KiB), over MetaX C500's 64 KiB. `tile-doctor check --target metax-c500` says so before
// launching. (The stages are filled in order here; the point is the footprint.)
#define BM 128
#define BN 128
#define BK 64
#define STAGES 3

__global__ void gemm_stages(const half* A, const half* B, float* C, int M, int N, int K) {
  extern __shared__ half smem[];
  half* As = smem;                          // STAGES x BM x BK
  half* Bs = smem + STAGES * BM * BK;       // STAGES x BK x BN
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int tr = threadIdx.x / 16, tc = threadIdx.x % 16;  // 16x16 threads, 8x8 outputs each
  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += BK * STAGES) {
    for (int s = 0; s < STAGES; ++s) {
      for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {
        int r = i / BK, c = i % BK, k = k0 + s * BK + c;
        As[s * BM * BK + i] = (row0 + r < M && k < K) ? A[(row0 + r) * K + k] : half(0.0f);
      }
      for (int i = threadIdx.x; i < BK * BN; i += blockDim.x) {
        int r = i / BN, c = i % BN, k = k0 + s * BK + r;
        Bs[s * BK * BN + i] = (k < K && col0 + c < N) ? B[k * N + col0 + c] : half(0.0f);
      }
    }
    __syncthreads();
    for (int s = 0; s < STAGES; ++s)
      for (int kk = 0; kk < BK; ++kk)
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < 8; ++j)
            acc[i][j] += __half2float(As[s * BM * BK + (tr * 8 + i) * BK + kk]) *
                         __half2float(Bs[s * BK * BN + kk * BN + tc * 8 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      int r = row0 + tr * 8 + i, c = col0 + tc * 8 + j;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}
