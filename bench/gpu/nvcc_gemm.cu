// The GEMM of examples/gemm compiled by nvcc, as compute-sanitizer sees kernels: a host driver that
// launches it ITERS times after one warm-up and prints the mean time per launch (CUDA events).
// Usage: nvcc_gemm SIZE ITERS
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <vector>

#include "../../examples/gemm/gemm.cu"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256, iters = argc > 2 ? atoi(argv[2]) : 20;
  std::vector<half> a(size_t(n) * n), b(size_t(n) * n);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = __float2half(float(rand()) / RAND_MAX - 0.5f);
    b[i] = __float2half(float(rand()) / RAND_MAX - 0.5f);
  }
  half *da, *db;
  float* dc;
  cudaMalloc(&da, a.size() * sizeof(half));
  cudaMalloc(&db, b.size() * sizeof(half));
  cudaMalloc(&dc, size_t(n) * n * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(half), cudaMemcpyHostToDevice);
  dim3 grid((n + BM - 1) / BM, (n + BM - 1) / BM), block(256);
  gemm<<<grid, block>>>(da, db, dc, n, n, n);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < iters; ++i) gemm<<<grid, block>>>(da, db, dc, n, n, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("nvcc_gemm M=N=K=%d iters=%d ms/iter=%.4f status=%s\n", n, iters, ms / iters,
         cudaGetErrorString(cudaGetLastError()));
  return 0;
}
