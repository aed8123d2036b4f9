// A two-warp producer/consumer pipeline on an mbarrier, with the asm forms of TileLang's barrier.h:
// warp 1 copies with cp.async and arrives through cp.async.mbarrier.arrive.noinc (phase 0), warp 0
// waits on parity 0 with the polling loop, reads the data, then arrives with mbarrier.arrive (phase 1),
// on which warp 1 waits before writing its own result.
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
  __shared__ __align__(8) unsigned long long bar;
  __shared__ __align__(16) int4 buf[32];
  int t = threadIdx.x, lane = t % 32;
  unsigned b = smem_u32(&bar);
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%1], %0;" ::"r"(32), "r"(b));
  __syncthreads();
  if (t == 0) early[0] = mbar_try(b, 0);  // nobody has arrived yet: phase 0 is not complete
  __syncthreads();
  if (t >= 32) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem_u32(&buf[lane])), "l"(in + lane));
    asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(b));
    mbar_wait(b, 1);
    out[32 + lane] = buf[lane].y * 2;
  } else {
    mbar_wait(b, 0);
    int4 v = buf[lane];
    out[lane] = v.x + v.y + v.z + v.w;
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(b));
  }
}
