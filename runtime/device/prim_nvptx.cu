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
  return bytes;
}

// Faults on the GPU are reported by the driver; the last-site note serves the CPU executor only.
__device__ void __td_mark_site(unsigned int) {}

// Race state: the executor allocates one slice per block of the grid and zeroes it before the launch.
static __device__ unsigned long long td_block_linear() {
  return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
}

__device__ td_granule* __td_race_shadow() {
  return reinterpret_cast<td_granule*>(__td_ctl.race_shadow) + td_block_linear() * __td_ctl.shadow_granules;
}

__device__ unsigned int* __td_thread_epochs() {
  unsigned long long threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned long long me = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return reinterpret_cast<unsigned int*>(__td_ctl.thread_epochs) + 2 * (td_block_linear() * threads + me);
}

__device__ unsigned int* __td_block_sync_count() {
  return reinterpret_cast<unsigned int*>(__td_ctl.block_sync) + td_block_linear();
}

__device__ td_block_checks* __td_block_checks() {
  return reinterpret_cast<td_block_checks*>(__td_ctl.block_checks) + td_block_linear();
}

// A block's threads update its shared shadow concurrently on the GPU: whole-word atomics.
__device__ unsigned long long __td_shadow_swap(unsigned long long* p, unsigned long long v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
__device__ void __td_shadow_or(unsigned int* p, unsigned int v) { __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }

}  // extern "C"
