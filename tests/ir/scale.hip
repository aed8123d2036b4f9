// A kernel in HIP for tile-doctor instrument's test: its IR for gfx942 (scale_amdgpu.ll) comes from
//   clang-19 -x hip --cuda-device-only --offload-arch=gfx942 -nogpulib -nogpuinc -O2 -gline-tables-only \
//     -S -emit-llvm -o scale_amdgpu.ll scale.hip
// and its NVPTX twin (scale_nvptx.ll) from the same source as CUDA:
//   clang-19 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudalib -nocudainc -O2 -gline-tables-only \
//     -S -emit-llvm -o scale_nvptx.ll scale.hip
// `i <= n` reads and writes one element past the end: the bounds check's planted bug.
#define __global__ __attribute__((global))
#ifdef __HIP__
#define BLOCK_ID __builtin_amdgcn_workgroup_id_x()
#define THREAD_ID __builtin_amdgcn_workitem_id_x()
#else
#define BLOCK_ID __nvvm_read_ptx_sreg_ctaid_x()
#define THREAD_ID __nvvm_read_ptx_sreg_tid_x()
#endif

extern "C" __global__ void scale(float* out, const float* in, int n) {
  int i = BLOCK_ID * 64 + THREAD_ID;
  if (i <= n) out[i] = 2.0f * in[i];
}
