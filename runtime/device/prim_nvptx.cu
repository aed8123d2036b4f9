// Executor primitives of the device runtime (td_runtime.cu) for NVIDIA GPUs: linked into the module
// the CUDA executor turns into PTX. The CPU executor lowers the same functions inline instead.
extern "C" {

__device__ int __td_warp_size(void) { return 32; }  // every NVIDIA GPU so far

__device__ unsigned int __td_shared_window_offset(const void* p) { return __nvvm_get_smem_pointer(const_cast<void*>(p)); }

__device__ unsigned int __td_shared_window_bytes() {
  unsigned int bytes;
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(bytes));
  return bytes;
}

// Faults on the GPU are reported by the driver; the last-site note serves the CPU executor only.
__device__ void __td_mark_site(unsigned int) {}

}  // extern "C"
