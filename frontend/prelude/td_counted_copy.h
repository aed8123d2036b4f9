// MACA's asynchronous copies, as both MetaX dialects run them (td_maca.h for tilelang-metax's output,
// td_hip_copy.h for the HIP stand-in's pipelined copies): there are no commit groups on MACA, every copy is
// counted ("no commit/wait group", a public BSM study; ../shared/research/metax-tilelang.md sec. 1.6), so
// each copy here closes a group of its own and a wait for "at most n outstanding" counts copies.
// The CPU executor lands a copy where its thread waits for it (td_async_copy.h).
#pragma once
#include <stdint.h>

// Issues one `Bytes`-byte copy from global into shared memory (none when `copy` is false; zeros where
// srcBytes < Bytes) and returns its number among the thread's copies.
template <int Bytes> __device__ inline uint32_t __td_counted_copy(void* dst, const void* src, bool copy, int srcBytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "MACA's asynchronous copies move 4, 8 or 16 bytes");
  if (copy)
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
                 "l"(src), "n"(Bytes), "r"(srcBytes)
                 : "memory");
  uint32_t number;
  asm volatile("td.cp.async.commit_ticket %0;" : "=r"(number)::"memory");
  return number;
}
// The thread waits until at most n of its copies are outstanding (__builtin_mxc_arrive_gvmcnt(n)).
__device__ inline void __td_counted_copy_wait(unsigned n) { asm volatile("cp.async.wait_group %0;" ::"r"(n) : "memory"); }
