// Shared-memory race planted bugs and their correct twins, one kernel each (the bundle_*.toml files pick
// the entry). Each writes `out` so the outputs can be compared across schedules.

// WAW: two threads write one shared slot in the same barrier interval (thread t and t ^ 1 both write
// slot t / 2).
__global__ void two_writers(float* out) {
  __shared__ float slot[64];
  int t = threadIdx.x;
  slot[t / 2] = (float)t;
  __syncthreads();
  if (t < 64) out[t] = slot[t];
}

// WAR: a double-buffered loop that forgot its trailing barrier: iteration k prefetches the next tile into
// buf[(k + 1) % 2] while computing on buf[k % 2]; without the barrier at the end, iteration k + 1
// overwrites buf[k % 2] while a slower thread may still be reading it (and reads a prefetch its
// neighbour has not been ordered after).
__global__ void double_buffer_no_trailing_barrier(const float* in, float* out) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  float acc = 0.f;
  buf[0][t] = in[t];
  __syncthreads();
  for (int k = 0; k < 4; ++k) {
    if (k + 1 < 4) buf[(k + 1) % 2][t] = in[(k + 1) * 128 + t];
    acc += buf[k % 2][(t + 1) % 128];
#ifdef FIXED
    __syncthreads();
#endif
  }
  out[t] = acc;
}

// Warp reduction through shared memory without __syncwarp between the steps (the pre-Volta idiom);
// FIXED puts __syncwarp() after every step.
__global__ void warp_reduce(const float* in, float* out) {
  __shared__ float s[32];
  int lane = threadIdx.x;
  s[lane] = in[lane];
#ifdef FIXED
  __syncwarp();
#endif
  for (int step = 16; step > 0; step /= 2) {
    float v = lane < step ? s[lane + step] : 0.f;
#ifdef FIXED
    __syncwarp();
#endif
    if (lane < step) s[lane] += v;
#ifdef FIXED
    __syncwarp();
#endif
  }
  if (lane == 0) out[0] = s[0];
}

// A shared read of a slot no thread wrote: the tile is 128 wide but only 120 threads fill it.
__global__ void uninit_tile(float* out) {
  __shared__ float tile[128];
  int t = threadIdx.x;
  if (t < 120) tile[t] = (float)t;
  __syncthreads();
  out[t] = tile[127 - t];
}

// Correct: one dynamic shared arena reused for two buffers across a barrier (as TileLang's allocator does).
__global__ void arena_reuse(const float* in, float* out) {
  extern __shared__ float arena[];
  float* a = arena;        // phase 1: a[0..128)
  int t = threadIdx.x;
  a[t] = in[t];
  __syncthreads();
  float v = a[127 - t];
  __syncthreads();
  int* b = (int*)arena;    // phase 2: the same bytes as counters
  b[t] = (int)v * 2;
  __syncthreads();
  out[t] = (float)b[(t + 1) % 128];
}

// Correct: an atomic histogram in shared memory (atomic against atomic never races).
__global__ void histogram(const int* in, int* out) {
  __shared__ int bins[16];
  int t = threadIdx.x;
  if (t < 16) bins[t] = 0;
  __syncthreads();
  atomicAdd(&bins[in[t] & 15], 1);
  __syncthreads();
  if (t < 16) out[t] = bins[t];
}

// A barrier under a thread-dependent branch: only the first 128 of 256 threads reach it; the others
// leave (EXIT) or go on to the next barrier (else).
__global__ void divergent_barrier(const float* in, float* out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];
  if (t < 128) {
    __syncthreads();
    out[t] = s[255 - t];
  }
#ifndef EXIT
  __syncthreads();
  out[t] += 1.f;
#endif
}

// One warp passes values round through shared memory (__syncwarp orders that), then lane 0 resets a counter
// every lane adds to: without the __syncwarp after the reset, the reset races with the other lanes' atomics.
// On the GPU the reset's lane runs its branch by turns with the others, inside the race check's own update.
__global__ void warp_counter_reset(const float* in, float* out) {
  __shared__ float pass[32];
  __shared__ float count;
  int lane = threadIdx.x;
  pass[lane] = in[lane];
  __syncwarp();
  float v = pass[(lane + 1) % 32];
  if (lane == 0) count = 0.f;
#ifdef FIXED
  __syncwarp();
#endif
  atomicAdd(&count, v);
  __syncwarp();
  out[lane] = count;
}

// The init check's summary counts each byte of a 256-byte chunk once. Each element of a 1 KiB tile is
// stored once except 77, 300 and 301, which nobody stores; then element 78 is stored again, and 302-303
// again in one 4-byte store. Counted twice, those would make up for the missing bytes and leave their
// chunks looking written through. Every thread then reads the whole tile.
__global__ void uninit_one_of_many(float* out) {
  __shared__ unsigned short tile[512];
  int t = threadIdx.x;
  for (int i = t; i < 512; i += blockDim.x)
    if (i != 77 && i != 300 && i != 301) tile[i] = (unsigned short)i;
  __syncthreads();
  if (t == 0) tile[78] = 78;
  if (t == 1) *(unsigned int*)&tile[302] = 302u | (303u << 16);
  __syncthreads();
  float sum = 0;
  for (int i = 0; i < 512; ++i) sum += tile[(i + t) % 512];
  out[blockIdx.x * blockDim.x + t] = sum;
}

// Lanes of one warp store the two halves of a word in one store (as a tile of halves is loaded): no race.
// With -DOVERLAP the last lane of each warp stores its neighbour's half instead of its own, in the same
// store: two lanes of one warp write the same two bytes with different values (a race), and the half
// nobody stores is read uninitialised. On the GPU such lanes update one history granule at once.
__global__ void half_pairs(const float* in, float* out) {
  __shared__ unsigned short h[256];
  int t = threadIdx.x;
#ifdef OVERLAP
  h[t % 32 == 31 ? t - 1 : t] = (unsigned short)(in[t] * 3.0f);
#else
  h[t] = (unsigned short)(in[t] * 3.0f);
#endif
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = h[t ^ 1];
}

// A tile load as tiled kernels write it: element i from threadIdx.x on, `stride` apart. Launched with stride
// = blockDim.x every thread stores elements of its own (no race check is needed, disjoint_writes.h); a
// stride written for a smaller block (half of it: threads t and t + stride store one element) or a second
// row of threads that the index leaves out (blockDim.y = 2) is a write-after-write race, found as before.
__global__ void tile_load(const float* in, float* out, int stride) {
  __shared__ float tile[512];
  for (int i = threadIdx.x; i < 512; i += stride) tile[i] = in[blockIdx.x * 512 + i] + (float)(threadIdx.x + 1000 * threadIdx.y);
  __syncthreads();
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = t; i < 512; i += blockDim.x * blockDim.y) out[blockIdx.x * 512 + i] = tile[i];
}

// A block sum's tree over 256 floats with 128 threads: in each step thread t < s adds buf[t + s] to buf[t],
// its own element, and no other thread of the step writes what it reads (no race check is needed,
// own_bytes.h). A guard one too wide (t <= s: thread s writes buf[s] as thread 0 reads it) or no barrier
// between the steps is a race.
__global__ void tree_sum(const float* in, float* out) {
  __shared__ float buf[256];
  unsigned t = threadIdx.x;
  buf[t] = in[blockIdx.x * 256 + t];
  buf[t + blockDim.x] = in[blockIdx.x * 256 + t + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x; s > 0; s >>= 1) {
#ifdef GUARD_ONE_TOO_WIDE
    if (t <= s) buf[t] += buf[t + s];
#else
    if (t < s) buf[t] += buf[t + s];
#endif
#ifndef NO_BARRIER
    __syncthreads();
#endif
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}
