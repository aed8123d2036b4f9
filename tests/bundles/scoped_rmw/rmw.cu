// libcu++'s cuda::atomic_ref writes every read-modify-write as inline PTX (cuda_ptx_generated.h): fetch_min/
// fetch_max (atom.{min,max}.relaxed.gpu.{s32,u32}), fetch_and/or/xor (atom.{and,or,xor}.relaxed.gpu.b32/b64),
// exchange (atom.exch.relaxed.gpu.b32), compare_exchange (atom.cas.relaxed.gpu.b32/b64, as TileLang's float
// atomicMax loops on it) and store (st.relaxed.gpu.b32, st.release.gpu.b64); beside them clang's own atomic
// store. 64 threads of two blocks update one set of counters: no race among atomics. PLANT_PLAIN_STORE:
// block 1's thread 3 also writes the float maximum with a plain store, a race with the compare-and-swaps.
__device__ float relaxedFloatMax(float* address, float value) {
  unsigned old = *(volatile unsigned*)address;
  while (true) {
    float current = __uint_as_float(old);
    if (current >= value) return current;
    unsigned seen;
    asm volatile("atom.cas.relaxed.gpu.b32 %0,[%1],%2,%3;" : "=r"(seen) : "l"(address), "r"(old), "r"(__float_as_uint(value)) : "memory");
    if (seen == old) return current;
    old = seen;
  }
}

__global__ void scoped_rmw(int* maxInt, unsigned* minUnsigned, unsigned* orBits, unsigned* andBits, unsigned long long* wide, float* maxFloat,
                           unsigned* swapped, unsigned* olds, unsigned long long* counter, unsigned* flags) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;  // 0..63
  int signedValue = (int)((t * 7) % 23) - 10;            // -10..12
  int oldInt;
  asm volatile("atom.max.relaxed.gpu.s32 %0,[%1],%2;" : "=r"(oldInt) : "l"(maxInt), "r"(signedValue) : "memory");
  unsigned oldUnsigned;
  asm volatile("atom.min.relaxed.gpu.u32 %0,[%1],%2;" : "=r"(oldUnsigned) : "l"(minUnsigned), "r"(100u + (t * 13) % 41) : "memory");
  asm volatile("atom.or.relaxed.gpu.b32 %0,[%1],%2;" : "=r"(oldUnsigned) : "l"(orBits), "r"(1u << (t % 32)) : "memory");
  __atomic_store_n(orBits, 0xffffffffu, __ATOMIC_RELAXED);  // clang's atomic store: no race with the ors either
  asm volatile("atom.and.relaxed.gpu.b32 %0,[%1],%2;" : "=r"(oldUnsigned) : "l"(andBits), "r"(~(1u << (t % 16))) : "memory");
  unsigned long long oldWide;
  asm volatile("atom.xor.relaxed.gpu.b64 %0,[%1],%2;" : "=l"(oldWide) : "l"(wide), "l"(1ull << t) : "memory");
  relaxedFloatMax(maxFloat, 0.25f * (float)((t * 29) % 64));
  // each thread its own slot: what the exchange hands back and leaves does not depend on the order threads ran
  asm volatile("atom.exch.relaxed.gpu.b32 %0,[%1],%2;" : "=r"(olds[t]) : "l"(swapped + t), "r"(t + 100) : "memory");
  unsigned long long expected = 0, seen;
  do {  // a 64-bit counter by compare-and-swap
    asm volatile("ld.relaxed.gpu.b64 %0,[%1];" : "=l"(expected) : "l"(counter) : "memory");
    asm volatile("atom.cas.relaxed.gpu.b64 %0,[%1],%2,%3;" : "=l"(seen) : "l"(counter), "l"(expected), "l"(expected + t) : "memory");
  } while (seen != expected);
#ifdef PLANT_PLAIN_STORE
  if (blockIdx.x == 1 && threadIdx.x == 3) *maxFloat = 1.0f;
#endif
  if (threadIdx.x == 0) {
    asm volatile("st.relaxed.gpu.b32 [%0],%1;" ::"l"(flags + blockIdx.x), "r"(1u) : "memory");
    asm volatile("st.release.gpu.b32 [%0],%1;" ::"l"(flags + 2 + blockIdx.x), "r"(7u) : "memory");
  }
}
