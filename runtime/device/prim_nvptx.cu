// Executor primitives of the device runtime (td_runtime.cu) for NVIDIA GPUs: linked into the module
// the CUDA executor turns into PTX. The CPU executor lowers the same functions inline instead.
#include "td_abi.h"

extern "C" {

extern __device__ td_ctl __td_ctl;

__device__ int __td_warp_size(void) { return 32; }  // every NVIDIA GPU so far

// Shared addresses count from the start of the block's window, where sm_80 and later keep reserved
// shared memory; the user's window starts at its cap (measured on the H200: reserved [0, 288), cap 1024,
// the first __shared__ array at 1024, %total_smem_size 512 for its 512 bytes).
__device__ unsigned int __td_shared_window_offset(const void* p) {
  unsigned int reserved;
  asm("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(reserved));
  return __nvvm_get_smem_pointer(const_cast<void*>(p)) - reserved;
}

__device__ unsigned int __td_shared_window_bytes() {
  unsigned int bytes;
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(bytes));
  if (!__td_ctl.shared_tail_bytes) return bytes;
  // The kernel's own bytes: the race state's tail and the padding before it are not its.
  unsigned int dynamic = __td_ctl.dynamic_shared_bytes;
  return bytes - __td_ctl.shared_tail_bytes - (TD_SHARED_TAIL_OFFSET(dynamic) - dynamic);
}

// Faults on the GPU are reported by the driver; the last-site note serves the CPU executor only.
__device__ void __td_mark_site(unsigned int) {}

// Race state. Where it fits, a block keeps its shared shadow, barrier slots, sync count and its threads'
// counters in its own shared memory (the tail, laid out in abi.h), launched after the kernel's dynamic
// array; otherwise the executor allocates one slice per block in global memory.
// Shared memory: the same latency as the kernel's own shared accesses and atomics inside the SM, where
// global shadow words go past L1 to L2 (measured: 38-44x native for a GEMM against 14x with the tail).
extern __shared__ __align__(16) unsigned char __td_dynamic_shared[];  // aliases the kernel's dynamic array

static __device__ unsigned char* td_shared_tail() {
  return __td_dynamic_shared + TD_SHARED_TAIL_OFFSET(__td_ctl.dynamic_shared_bytes);
}

static __device__ unsigned long long td_block_linear() {
  return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
}

static __device__ unsigned int td_block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

static __device__ unsigned int td_thread_linear() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// This thread's index among all of the grid's, for state kept per thread in global memory.
static __device__ unsigned long long td_grid_thread() {
  return td_block_linear() * td_block_threads() + td_thread_linear();
}

__device__ td_block_checks* __td_block_checks() {
  if (__td_ctl.shared_tail_bytes) return reinterpret_cast<td_block_checks*>(td_shared_tail());
  return reinterpret_cast<td_block_checks*>(__td_ctl.block_checks) + td_block_linear();
}

__device__ unsigned int* __td_block_sync_count() {
  if (__td_ctl.shared_tail_bytes) return reinterpret_cast<unsigned int*>(td_shared_tail() + TD_TAIL_SYNC_OFFSET);
  return reinterpret_cast<unsigned int*>(__td_ctl.block_sync) + td_block_linear();
}

__device__ unsigned int* __td_thread_epochs() {
  if (__td_ctl.shared_tail_bytes)
    return reinterpret_cast<unsigned int*>(td_shared_tail() + TD_TAIL_EPOCHS_OFFSET) + 2 * td_thread_linear();
  return reinterpret_cast<unsigned int*>(__td_ctl.thread_epochs) + 2 * td_grid_thread();
}

__device__ td_granule* __td_race_shadow() {
  if (__td_ctl.shared_tail_bytes)
    return reinterpret_cast<td_granule*>(td_shared_tail() + TD_TAIL_GRANULES_OFFSET(td_block_threads()));
  return reinterpret_cast<td_granule*>(__td_ctl.race_shadow) + td_block_linear() * __td_ctl.shadow_granules;
}

__device__ unsigned int* __td_wait_slot() {
  if (!__td_ctl.wait_board) return nullptr;
  return reinterpret_cast<unsigned int*>(__td_ctl.wait_board) + td_grid_thread();
}

// At the kernel's entry: the block zeroes its shared tail, and waits until every thread has (shared
// memory starts with what the SM's last block left there).
__device__ void __td_block_start() {
  if (!__td_ctl.shared_tail_bytes) return;
  unsigned long long* tail = reinterpret_cast<unsigned long long*>(td_shared_tail());
  for (unsigned int i = td_thread_linear(); i < __td_ctl.shared_tail_bytes / 8; i += td_block_threads()) tail[i] = 0;
  __syncthreads();
}

// A block's threads update its shared shadow concurrently on the GPU: whole-word atomics.
__device__ unsigned long long __td_shadow_swap(unsigned long long* p, unsigned long long v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
__device__ void __td_shadow_or(unsigned int* p, unsigned int v) { __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }

}  // extern "C"
