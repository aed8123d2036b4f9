// 16-bit compare-and-swap (atomicCAS on unsigned short, which the CUDA SDK leaves to nvcc's builtin
// __usAtomicCAS; TileLang's half/bf16 atomics below sm_90 are CAS loops over it): even threads count in
// counts[0], odd threads in counts[1], the two halves of one 32-bit word, each by a CAS loop.
#include <cuda_runtime.h>

extern "C" __global__ void count_in_halves(short* counts_as_short) {
  unsigned short* counts = (unsigned short*)counts_as_short;
  unsigned short* mine = counts + (threadIdx.x & 1);
  unsigned short old = *mine, assumed;
  do {
    assumed = old;
    old = atomicCAS(mine, assumed, (unsigned short)(assumed + 1));
  } while (old != assumed);
}
