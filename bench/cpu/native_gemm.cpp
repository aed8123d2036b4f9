// The GEMM of examples/gemm/gemm.cu compiled natively for the host, as a loop over threads: the kernel
// split at its two barriers (what loop fission makes of it), each part run for the block's 256 threads
// in turn, on one core. The reference bench/cpu/simulation_rate.py holds the CPU executor's simulation
// against. Same tile sizes, same per-thread arithmetic in the same order (fp16 tiles, fp32 accumulators).
// Usage: native_gemm SIZE REPEATS  -> prints "seconds=<median of REPEATS runs of the whole grid>"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
constexpr int BM = 64, BN = BM, BK = 32, kThreads = 256;
using half = _Float16;

void gemm(const half* A, const half* B, float* C, int M, int N, int K) {
  static half As[BM][BK], Bs[BK][BN];
  static float acc[kThreads][4][4];
  for (int by = 0; by < (M + BM - 1) / BM; ++by)
    for (int bx = 0; bx < (N + BN - 1) / BN; ++bx) {
      const int row0 = by * BM, col0 = bx * BN;
      for (auto& a : acc)
        for (auto& r : a) std::fill(std::begin(r), std::end(r), 0.0f);
      for (int k0 = 0; k0 < K; k0 += BK) {
        for (int t = 0; t < kThreads; ++t) {  // up to the first __syncthreads
          for (int i = t; i < BM * BK; i += kThreads) {
            int r = i / BK, c = i % BK;
            As[r][c] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : half(0.0f);
          }
          for (int i = t; i < BK * BN; i += kThreads) {
            int r = i / BN, c = i % BN;
            Bs[r][c] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : half(0.0f);
          }
        }
        for (int t = 0; t < kThreads; ++t) {  // up to the second
          const int tx = t % 16, ty = t / 16;
          for (int kk = 0; kk < BK; ++kk)
            for (int i = 0; i < 4; ++i)
              for (int j = 0; j < 4; ++j)
                acc[t][i][j] += float(As[ty * 4 + i][kk]) * float(Bs[kk][tx * 4 + j]);
        }
      }
      for (int t = 0; t < kThreads; ++t) {
        const int tx = t % 16, ty = t / 16;
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) {
            int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
            if (r < M && c < N) C[r * N + c] = acc[t][i][j];
          }
      }
    }
}
}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 512, repeats = argc > 2 ? atoi(argv[2]) : 5;
  std::vector<half> a(size_t(n) * n), b(size_t(n) * n);
  std::vector<float> c(size_t(n) * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = half(float(rand() / double(RAND_MAX)) - 0.5f), b[i] = half(float(rand() / double(RAND_MAX)) - 0.5f);
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    gemm(a.data(), b.data(), c.data(), n, n, n);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("seconds=%.6f checksum=%.3f\n", times[times.size() / 2], double(c[n + 1]));
}
