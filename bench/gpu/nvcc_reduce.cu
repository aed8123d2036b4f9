// The block reduction of tests/bundles/reduce compiled by nvcc: launched ITERS times after a warm-up,
// mean time per launch (CUDA events). Usage: nvcc_reduce N ITERS
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../../tests/bundles/reduce/reduce.cu"

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 24, iters = argc > 2 ? atoi(argv[2]) : 20;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(rand()) / RAND_MAX - 0.5f;
  int blocks = (n + 255) / 256;
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, blocks * sizeof(float));
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  block_sum<<<blocks, 256>>>(din, dout, n);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < iters; ++i) block_sum<<<blocks, 256>>>(din, dout, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("nvcc_reduce N=%d iters=%d ms/iter=%.4f status=%s\n", n, iters, ms / iters, cudaGetErrorString(cudaGetLastError()));
  return 0;
}
