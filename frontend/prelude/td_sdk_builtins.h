// Device functions the CUDA SDK declares and nvcc provides as builtins, which clang does not: forced into
// `headers = "cuda"` compiles. nvcc's own definitions are not public; these compute the same result.
#pragma once

// The 16-bit atomicCAS of crt/sm_70_rt.hpp (unsigned short; TileLang's bf16 and half atomics below sm_90
// are CAS loops over it): a 32-bit CAS on the aligned word holding the half, retried while only the other
// half changed. Not inlined: the race check knows a call of it as a compare-and-swap (instrument/accesses.cpp).
extern "C" __device__ __attribute__((noinline)) unsigned short __usAtomicCAS(unsigned short* address, unsigned short compare,
                                                   unsigned short val) {
  unsigned int* word = (unsigned int*)((unsigned long long)address & ~3ull);
  unsigned int shift = (unsigned int)((unsigned long long)address & 2ull) * 8u;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    unsigned short current = (unsigned short)(assumed >> shift);
    if (current != compare) return current;
    old = atomicCAS(word, assumed, (assumed & ~(0xffffu << shift)) | ((unsigned int)val << shift));
  } while (old != assumed);
  return compare;
}
