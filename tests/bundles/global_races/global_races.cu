// Global-memory races and uninitialised global reads: planted bugs and their correct twins.

// Every block writes the same 64 elements: the index forgets blockIdx.x (an inter-block race).
__global__ void blocks_share_a_row(const float* in, float* out) {
  int t = threadIdx.x;
  out[t] = in[blockIdx.x * 64 + t];
}

// Correct twin: each block its own row.
__global__ void blocks_own_rows(const float* in, float* out) {
  int i = blockIdx.x * 64 + threadIdx.x;
  out[i] = in[i];
}

// A counter bumped with a plain += by every thread of the block: a lost update per collision.
__global__ void plain_counter(const int* flags, int* count) {
  if (flags[threadIdx.x]) count[0] += 1;
}

// Correct twin: atomicAdd (atomic against atomic never races).
__global__ void atomic_counter(const int* flags, int* count) {
  if (flags[threadIdx.x]) atomicAdd(&count[0], 1);
}

// A plain read of a slot the other threads update atomically, with no barrier between.
__global__ void plain_read_of_atomic_slot(int* slot, int* seen) {
  int t = threadIdx.x;
  if (t > 0) atomicAdd(&slot[0], t);
  if (t == 0) seen[0] = slot[0];
}

// Correct twin: the barrier orders the read after every update.
__global__ void read_after_barrier(int* slot, int* seen) {
  int t = threadIdx.x;
  if (t > 0) atomicAdd(&slot[0], t);
  __syncthreads();
  if (t == 0) seen[0] = slot[0];
}

// Accumulates into an output the manifest says starts uninitialised (as torch.empty allocates it).
__global__ void accumulate_into_uninit(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] += in[i];
}

// Correct twin: the output is written before it is read.
__global__ void write_then_scale(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
  out[i] *= 2.0f;
}
