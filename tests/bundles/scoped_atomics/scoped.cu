// libcu++ and the SDK write their scoped atomics as inline PTX: cuda::atomic_ref's fetch_add
// (atom.add.relaxed.gpu.{s32,f32}), its load (ld.relaxed.gpu.b32), the fences of its orderings
// (fence.sc.gpu, fence.acq_rel.gpu), and atomicAdd on __half2 / __nv_bfloat16 (atom.add.noftz.*). 64
// threads of two blocks add into shared counters: no race among atomics. PLANT_PLAIN_STORE: block 0's
// thread 5 also resets the counter with a plain store, which races with the others' atomic adds.
__global__ void scoped_atomics(int* count, float* sum, unsigned* halves, unsigned short* bf, int* seen) {
  int old;
  float oldf;
  asm volatile("atom.add.relaxed.gpu.s32 %0,[%1],%2;" : "=r"(old) : "l"(count), "r"(1) : "memory");
  asm volatile("atom.relaxed.gpu.global.add.f32 %0,[%1],%2;" : "=f"(oldf) : "l"(sum), "f"(0.5f) : "memory");
  unsigned pairOld;
  asm volatile("{ atom.add.noftz.f16x2 %0,[%1],%2; }\n" : "=r"(pairOld) : "l"(halves), "r"(0x34003c00u) : "memory");
  unsigned short bfOld;
  asm volatile("{ atom.add.noftz.bf16 %0,[%1],%2; }\n" : "=h"(bfOld) : "l"(bf), "h"((unsigned short)0x3e80) : "memory");
  asm volatile("fence.sc.gpu;" ::: "memory");
#ifdef PLANT_PLAIN_STORE
  if (blockIdx.x == 0 && threadIdx.x == 5) *count = 0;
#endif
  __syncthreads();
  if (threadIdx.x == 0) {
    int now;
    asm volatile("ld.relaxed.gpu.b32 %0,[%1];" : "=r"(now) : "l"(count) : "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    seen[blockIdx.x] = now >= 32;  // this block's 32 adds are in, whatever the other block did
  }
}
