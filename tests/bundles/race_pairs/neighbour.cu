// Each thread reads its right neighbour's element with no barrier after the writes: a read-after-write (or
// write-after-read) race for every thread, between lanes of one warp for 31 of every 32 threads and across
// two warps for the rest. The report's pair should be one no lockstep could explain: two warps.
__global__ void neighbour(float* out) {
  __shared__ float s[128];
  int t = threadIdx.x;
  s[t] = t;
  out[t] = s[(t + 1) % 128];  // a __syncthreads() before this line orders them
}
