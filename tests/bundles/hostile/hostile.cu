// Hostile shapes of kernel code (issue 32) as seeds for the IR fuzzer (tests/fuzz): addresses made from
// integers, kept in memory, past a local array; calls through forged pointers; printf of wild memory.
#include <cstdio>
__device__ float twice(float v) { return 2 * v; }
__device__ float (*const kTable[2])(float) = {twice, twice};
__constant__ float kLut[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__global__ void hostile(float* out, long long where) {
  int i = threadIdx.x;
  volatile unsigned long long slot = (unsigned long long)out + where;
  float* p = (float*)slot;
  float loc[8];
  for (int j = 0; j < 8; ++j) loc[j] = kLut[j] * (float)(where + 1);
  volatile int off = 8 + i % 4;
  float (*f)(float) = kTable[i % 2];
  volatile unsigned long long fn = (unsigned long long)f + (where & 1);
  f = (float (*)(float))fn;
  if (where) {
    *p = loc[off];
    atomicAdd(p + 1, f(1.0f));
    printf("%s\n", (const char*)p);
  }
  out[i] = loc[i % 8];
}
