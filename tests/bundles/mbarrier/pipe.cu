// A two-warp producer/consumer pipeline on two mbarriers, with the asm forms of TileLang's barrier.h.
// full: warp 1 copies with cp.async and arrives through cp.async.mbarrier.arrive.noinc; its phase 0
// completes when all 32 copies have landed. done: warp 0 waits on full (polling loop, parity 0), reads
// the data, and arrives with mbarrier.arrive; warp 1 waits on both before it writes its own result.
// (One barrier for both steps would let a slow thread wait on a parity that has come round again.)
__device__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ void mbar_wait(unsigned bar, int parity) {
  unsigned ticks = 0x989680;
  asm volatile("{\n\t.reg .pred P1; \n\tLAB_WAIT: \n\tmbarrier.try_wait.parity.shared.b64 P1, [%0], %1, %2; \n\t@P1 bra DONE; \n\t"
               "bra     LAB_WAIT; \n\tDONE: \n\t}" ::"r"(bar), "r"(parity), "r"(ticks));
}
__device__ unsigned mbar_try(unsigned bar, int parity) {
  unsigned done;
  asm volatile("{\n\t.reg .pred P1; \n\tmbarrier.try_wait.parity.shared.b64 P1, [%1], %2; \n\tselp.b32 %0, 1, 0, P1; \n\t}"
               : "=r"(done) : "r"(bar), "r"(parity));
  return done;
}

__global__ void pipe(const int4* in, int* out, int* early) {
  __shared__ __align__(8) unsigned long long bars[2];
  __shared__ __align__(16) int4 buf[32];
  int t = threadIdx.x, lane = t % 32;
  unsigned full = smem_u32(&bars[0]), done = smem_u32(&bars[1]);
  if (t == 0) {
    asm volatile("mbarrier.init.shared.b64 [%1], %0;" ::"r"(32), "r"(full));
    asm volatile("mbarrier.init.shared.b64 [%1], %0;" ::"r"(32), "r"(done));
  }
  __syncthreads();
  if (t == 0) early[0] = mbar_try(full, 0);  // nobody has arrived yet: phase 0 is not complete
  __syncthreads();
  if (t >= 32) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem_u32(&buf[lane])), "l"(in + lane));
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(full));
    mbar_wait(full, 0);
    mbar_wait(done, 0);
    out[32 + lane] = buf[lane].y * 2;
  } else {
    mbar_wait(full, 0);
    int4 v = buf[lane];
    out[lane] = v.x + v.y + v.z + v.w;
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(done));
  }
}
