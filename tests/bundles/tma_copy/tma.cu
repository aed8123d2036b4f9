// Hopper TMA: each block loads a 32x32 float tile of `src` into shared memory with one
// cp.async.bulk.tensor copy through the descriptor the host built (src arrives as a CUtensorMap), waits on
// an mbarrier for its bytes, and writes twice the tile to `out`. `guard` = 0 drops the edge check: with a
// width that is not a multiple of 32 the edge blocks write past their rows and the last one past `out`.
#include <cuda.h>

__device__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__global__ void tma_tile_scale(const __grid_constant__ CUtensorMap src, float* out, int rows, int cols, int guard) {
  __shared__ __align__(128) float tile[32][32];
  __shared__ __align__(8) unsigned long long full;
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&full)));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&full)), "r"(32 * 32 * 4) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(smem(&tile[0][0])), "l"(reinterpret_cast<unsigned long long>(&src)), "r"(x0), "r"(y0),
                 "r"(smem(&full)) : "memory");
  }
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(&full)) : "memory");
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) {
    int r = i / 32, c = i % 32;
    if (!guard || (y0 + r < rows && x0 + c < cols)) out[(y0 + r) * cols + x0 + c] = 2.0f * tile[r][c];
  }
}
