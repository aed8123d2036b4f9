// Loops over shared tiles whose init checks run before the loop (checks/race/hoisted_init_reads.h). The
// planted bugs must be found as the per-read checks find them; the correct kernels, whose loops read only
// what was written (a padded column, a search that stops early, a bound below the loop's), stay clean.
#define N 256

// Every thread sums the whole tile, in order; tile[37] was never stored.
__global__ void sum_missing_one(float* out) {
  __shared__ float tile[N];
  int t = threadIdx.x;
  for (int i = t; i < N; i += blockDim.x)
    if (i != 37) tile[i] = (float)i;
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < N; ++k) sum += tile[k];
  out[blockIdx.x * blockDim.x + t] = sum;
}

// Backwards, every third element: tile[N - 1 - 3 * 70] (= 45) was never stored, tile[37] is not read.
__global__ void reverse_stride_missing(float* out) {
  __shared__ float tile[N];
  int t = threadIdx.x;
  for (int i = t; i < N; i += blockDim.x)
    if (i != 45 && i != 37) tile[i] = (float)i;
  __syncthreads();
  float sum = 0;
  for (int k = N - 1; k >= 0; k -= 3) sum += tile[k];
  out[blockIdx.x * blockDim.x + t] = sum;
}

// A padded tile read down its columns: the padding column (32) is never written and never read.
__global__ void column_sum_padded(float* out) {
  __shared__ float tile[32][33];
  int t = threadIdx.x;
  for (int i = t; i < 32 * 32; i += blockDim.x) tile[i / 32][i % 32] = (float)i;
  __syncthreads();
  float sum = 0;
#pragma unroll 1
  for (int r = 0; r < 32; ++r) sum += tile[r][t % 32];
  out[blockIdx.x * blockDim.x + t] = sum;
}

// A search that stops at its key: the tile's second half, never written, is never reached.
__global__ void search_stops_early(int* out) {
  __shared__ int keys[N];
  int t = threadIdx.x;
  for (int i = t; i < N / 2; i += blockDim.x) keys[i] = i;
  __syncthreads();
  int found = -1;
  for (int k = 0; k < N; ++k)
    if (keys[k] == 100 + t % 8) {
      found = k;
      break;
    }
  out[blockIdx.x * blockDim.x + t] = found;
}

// Reads under a bound the loop does not know: only the first `limit` elements, all written (100: the last
// 256-byte chunk read is written in part).
__global__ void bounded_reads(float* out, int limit) {
  __shared__ float tile[N];
  int t = threadIdx.x;
  for (int i = t; i < limit; i += blockDim.x) tile[i] = (float)i;
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < N; ++k)
    if (k < limit) sum += tile[k];
  out[blockIdx.x * blockDim.x + t] = sum;
}

// Each thread writes its own row inside the loop, then reads it back: nothing is read before it is written.
__global__ void writes_then_reads_in_loop(float* out) {
  __shared__ float rows[64][16];
  int t = threadIdx.x;
  float sum = 0;
  for (int k = 0; k < 16; ++k) {
    rows[t % 64][k] = (float)(t + k);
    sum += rows[t % 64][k];
  }
  out[blockIdx.x * blockDim.x + t] = sum;
}

// Every third element of a half-word tile, written and read: the two between stay unwritten, and the checks
// before the loop look at the read bytes only. bundle_every_third_half_missing.toml leaves one out (MISSING).
#ifndef MISSING
#define MISSING -1
#endif
__global__ void every_third_half(float* out) {
  __shared__ unsigned short h[3 * 96];
  int t = threadIdx.x;
  for (int i = t; i < 96; i += blockDim.x)
    if (3 * i != MISSING) h[3 * i] = (unsigned short)i;
  __syncthreads();
  float sum = 0;
#pragma unroll 1
  for (int k = 0; k < 96; ++k) sum += h[3 * k];
  out[blockIdx.x * blockDim.x + t] = sum;
}

// The first 100 elements, written and read in order: the second 256-byte chunk of the tile is written in
// part, so the span of the reads is looked at granule by granule.
__global__ void prefix_of_tile(float* out) {
  __shared__ float tile[N];
  int t = threadIdx.x;
  for (int i = t; i < 100; i += blockDim.x) tile[i] = (float)i;
  __syncthreads();
  float sum = 0;
#pragma unroll 1
  for (int k = 0; k < 100; ++k) sum += tile[k];
  out[blockIdx.x * blockDim.x + t] = sum;
}
