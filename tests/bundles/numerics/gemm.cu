// C = A B for half matrices with a shared-memory tiled GEMM, 16x16 tiles, K = 1024. The planted bug: the
// dot product accumulates in half (acc += a * b on __half), as a port "to stay in fp16" writes it; its twin
// accumulates in float and rounds once at the store.
#define TILE 16

extern "C" __global__ void __launch_bounds__(256) gemm_half_accum(const __half* __restrict__ A, const __half* __restrict__ B,
                                                                  __half* __restrict__ C, int N, int K) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  __half acc = __float2half(0.0f);
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc = acc + As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

extern "C" __global__ void __launch_bounds__(256) gemm_float_accum(const __half* __restrict__ A, const __half* __restrict__ B,
                                                                   __half* __restrict__ C, int N, int K) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N + col] = __float2half(acc);
}
