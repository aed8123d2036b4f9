// A tiled fp16 GEMM with fp32 accumulation: C[M, N] = A[M, K] * B[K, N].
// Each block computes a BM x BN tile of C with 256 threads; every thread owns a 4x4 patch.
// Tiles of A and B are staged through shared memory, BK columns at a time.
#ifndef BM
#define BM 64
#endif
#define BN BM
#define BK 32

__global__ void __launch_bounds__(256) gemm(const half* __restrict__ A, const half* __restrict__ B, float* C, int M,
                                            int N, int K) {
  __shared__ half As[BM][BK];
  __shared__ half Bs[BK][BN];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {
      int r = i / BK, c = i % BK;
      As[r][c] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : half(0.0f);
    }
    for (int i = threadIdx.x; i < BK * BN; i += blockDim.x) {
      int r = i / BN, c = i % BN;
      Bs[r][c] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : half(0.0f);
    }
#ifndef MISSING_BARRIER  // racy_gemm.toml defines it: the tile is read before every thread stored its part
    __syncthreads();
#endif
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[ty * 4 + i][kk]) * __half2float(Bs[kk][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}
