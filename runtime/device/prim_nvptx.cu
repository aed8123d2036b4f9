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
  // The kernel's own bytes: the regions' tail and the padding before it are not its.
  unsigned int dynamic = __td_ctl.dynamic_shared_bytes;
  return bytes - __td_ctl.shared_tail_bytes - (TD_SHARED_TAIL_OFFSET(dynamic) - dynamic);
}

// Containment (td_contain.cuh): the kernel's own bytes of the block's window; the thread's local memory,
// which the GPU bounds itself.
__device__ bool __td_in_shared_window(const void* p, unsigned long long size) {
  if (!__nvvm_isspacep_shared(p)) return false;
  unsigned long long off = __td_shared_window_offset(p), bytes = __td_shared_window_bytes();
  return off <= bytes && size <= bytes - off;
}

__device__ bool __td_in_own_stack(const void* p, unsigned long long) { return __nvvm_isspacep_local(p); }

// Faults on the GPU are reported by the driver; the last-site note serves the CPU executor only.
__device__ void __td_mark_site(unsigned int) {}

// Regions (abi.h). Where they fit, a block keeps the ones that prefer it in its own shared memory (the
// tail), launched after the kernel's dynamic array; the others, and all where the tail does not fit, have
// one instance per block or thread in global memory.
// Shared memory: the same latency as the kernel's own shared accesses and atomics inside the SM, where
// global words go past L1 to L2 (measured: 38-44x native for a race-checked GEMM against 14x with the tail).
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

// The control block is baked into the module: for a constant id all of this folds to an address.
__device__ void* __td_region(unsigned int id) {
  const td_region& r = __td_ctl.regions[id];
  if (!(r.flags & TD_REGION_PRESENT)) return nullptr;
  if (r.flags & TD_REGION_IN_SHARED) {
    unsigned char* p = td_shared_tail() + r.shared_offset;
    return r.scope == TD_SCOPE_THREAD ? p + r.bytes * td_thread_linear() : p;
  }
  unsigned long long i = r.scope == TD_SCOPE_BLOCK ? td_block_linear() : r.scope == TD_SCOPE_THREAD ? td_grid_thread() : 0;
  return reinterpret_cast<unsigned char*>(r.base) + r.bytes * i;
}

// At the kernel's entry: the block zeroes its shared tail, and waits until every thread has (shared
// memory starts with what the SM's last block left there).
__device__ void __td_block_start() {
  if (!__td_ctl.shared_tail_bytes) return;
  uint4* tail = reinterpret_cast<uint4*>(td_shared_tail());  // 16-byte aligned, a multiple of 16 bytes
  for (unsigned int i = td_thread_linear(); i < __td_ctl.shared_tail_bytes / 16; i += td_block_threads()) tail[i] = uint4{0, 0, 0, 0};
  __syncthreads();
}

// A block's threads run concurrently on the GPU: whole-word atomics.
__device__ unsigned long long __td_block_local_swap(unsigned long long* p, unsigned long long v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }
__device__ unsigned int __td_block_local_or(unsigned int* p, unsigned int v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
__device__ unsigned long long __td_block_local_cas(unsigned long long* p, unsigned long long expected, unsigned long long v) {
  __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return expected;
}
__device__ void __td_block_order(void) { __nvvm_membar_cta(); }

// A thread has up to 255 registers: values kept live for a check cost less than what would spare them
// (measured: the numerics birth records' carried lane mask cost the H100 GEMM 3.2x -> 4.1x).
__device__ bool __td_few_vector_registers(void) { return false; }

}  // extern "C"
