// Device functions the CUDA SDK declares and nvcc provides as builtins, which clang does not: forced into
// `headers = "cuda"` compiles. nvcc's own definitions are not public; these compute the same result.
#pragma once

// The 16-bit atomicCAS of crt/sm_70_rt.hpp (unsigned short; TileLang's half/bf16 atomics below sm_90 are
// CAS loops over it): one 16-bit compare-and-swap (LLVM's cmpxchg i16; atom.cas.b16 on sm_70+), which
// touches only its own two bytes - a wider CAS on the aligned word would reach past a 2-byte buffer. Not
// inlined: the race check knows a call of it as a compare-and-swap (instrument/accesses.cpp).
extern "C" __device__ __attribute__((noinline)) unsigned short __usAtomicCAS(unsigned short* address,
                                                                           unsigned short compare,
                                                                           unsigned short val) {
  __atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;  // the value found: the expected one when the swap happened
}

#include "td_async_copy.h"
