// tile-doctor's MACA prelude: what MACA-dialect code (tilelang-metax's output: CUDA C++ with MetaX's
// `__builtin_mxc_*` builtins, compiled by mxcc, a clang 19) takes from the MACA SDK, written here from
// the published descriptions (../shared/research/metax-tilelang.md sec. 1.3-1.6), since no MACA header is
// public. Every SDK header name it includes (mcr/mc_runtime.h, common/maca_fp16.h, ...) resolves to this
// file. The semantics are the documented ones where a source gives them and tile-doctor's reading
// otherwise; docs/guide-metax.md lists which is which. Nothing here was run on MetaX hardware.
#pragma once
#include <stdint.h>

#define __MACA__ 1
#define __MACACC__ 1
#ifndef __MACA_ARCH__
#define __MACA_ARCH__ 1000
#endif
#define TILE_DOCTOR_MACA 1

typedef int mcError_t;
#define mcSuccess 0
typedef void* mcStream_t;
#define mcStreamDefault nullptr

// ---- 64-bit lane masks --------------------------------------------------------------------------------
// MACA's warp functions take a 64-bit mask (`_FULL_WARP_MASK = 0xFFFFFFFFFFFFFFFF`). For shuffles the mask
// is not used (the IR lowers them to mbcnt + bpermute without it): all of the wave's lanes take part,
// `width` subdivides it. The executor's masks hold 32 lanes: a 64-bit full mask is passed as the wave's
// active lanes (not the literal 0xffffffff, which the sync check reads as a 32-lane mask on a 64-lane
// wave); a 64-bit mask naming lanes 32-63 cannot be expressed and is cut to its low half.
// (uint64_t overloads beside clang's 32-bit CUDA ones.)
__device__ inline unsigned __td_maca_mask(uint64_t mask) { return mask == ~0ull ? __nvvm_activemask() : (unsigned)mask; }
__device__ inline void __syncwarp(uint64_t mask) { __nvvm_bar_warp_sync(__td_maca_mask(mask)); }
template <typename T> __device__ inline T __shfl_sync(uint64_t, T v, int lane, int width = warpSize) {
  return __shfl(v, lane, width);
}
template <typename T> __device__ inline T __shfl_xor_sync(uint64_t, T v, int m, int width = warpSize) {
  return __shfl_xor(v, m, width);
}
template <typename T> __device__ inline T __shfl_down_sync(uint64_t, T v, unsigned d, int width = warpSize) {
  return __shfl_down(v, d, width);
}
template <typename T> __device__ inline T __shfl_up_sync(uint64_t, T v, unsigned d, int width = warpSize) {
  return __shfl_up(v, d, width);
}

// ---- reduce intrinsics: the mask's type sets the group (measured on a C550, MACA 3.5.3.18: "the full
// unsigned 32-bit mask operates on 32-element groups, while its full unsigned-long 64-bit mask operates on
// 64-element groups") ------------------------------------------------------------------------------------
// The 32-bit form synchronises the lanes its mask names first, so the sync check sees the 32-lane mask on
// a 64-lane wave (warp-size-assumption) at the caller's line.
template <typename Op> __device__ inline int __td_maca_reduce(int v, int width, Op op) {
  for (int offset = width / 2; offset > 0; offset /= 2) v = op(v, __shfl_xor(v, offset, width));
  return v;
}
// (clang's CUDA headers declare the 32-bit forms with NVIDIA's meaning: MACA's take their names.)
#define TD_MACA_REDUCE(NAME, EXPR)                                                                        \
  __device__ inline int __td_maca##NAME(unsigned mask, int v) {                                         \
    __nvvm_bar_warp_sync(mask);                                                                          \
    return __td_maca_reduce(v, 32, [](int a, int b) { return EXPR; });                                   \
  }                                                                                                      \
  __device__ inline int __td_maca##NAME(uint64_t mask, int v) {                                         \
    return __td_maca_reduce(v, 64, [](int a, int b) { return EXPR; });                                   \
  }
TD_MACA_REDUCE(__reduce_add_sync, a + b)
TD_MACA_REDUCE(__reduce_min_sync, a < b ? a : b)
TD_MACA_REDUCE(__reduce_max_sync, a > b ? a : b)
#undef TD_MACA_REDUCE
#define __reduce_add_sync __td_maca__reduce_add_sync
#define __reduce_min_sync __td_maca__reduce_min_sync
#define __reduce_max_sync __td_maca__reduce_max_sync

// ---- shared-memory barriers and asynchronous copies ---------------------------------------------------
// __syncthreadshared(): a block-scope release/acquire fence and the shared-memory barrier.
__device__ inline void __syncthreadshared() { __syncthreads(); }
__device__ inline void __builtin_mxc_barrier_shared() { __syncthreads(); }
// memcpy_async<bytes>(dst, src) starts a copy into shared memory that the block's next
// barrier_arrive_and_wait() completes (tilelang-metax's lowering of T.copy with async copies); modelled as
// cp.async of that many bytes and its wait, so the race check sees when the data lands.
template <int Bytes> __device__ inline uint64_t memcpy_async(void* dst, const void* src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "memcpy_async copies 4, 8 or 16 bytes");
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
               "n"(Bytes)
               : "memory");
  return 0;
}
__device__ inline void barrier_arrive_and_wait(uint64_t) {
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
}
// maca_cp_async_zfill<N>(dst, src, valid): N bytes, zeros where `valid` is false; maca_cp_async_wait<N>().
template <int N> __device__ inline void maca_cp_async_zfill(void* dst, const void* src, bool valid = true) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
               "l"(src), "n"(N), "r"(valid ? N : 0)
               : "memory");
}
template <int N> __device__ inline void maca_cp_async_wait() { asm volatile("cp.async.wait_all;" ::: "memory"); }

// ---- matrix: MetaX's MXC MMA, 16x16 tiles over 64 lanes x 4 elements, fp32 (or int32) accumulators; the
// operands in the order given (TileLang writes (B_local, A_local, acc)) -----------------------------------
#include <td_matrix64.h>
#define __builtin_mxc_mma_16x16x16f16(a, b, c) __td_mma64_f32_16x16x16_f16(a, b, c)
#define __builtin_mxc_mma_16x16x16bf16(a, b, c) __td_mma64_f32_16x16x16_bf16(a, b, c)
#define __builtin_mxc_mma_16x16x8tf32(a, b, c) __td_mma64_f32_16x16x8_tf32(a, b, c)
#define __builtin_mxc_mma_16x16x16i8(a, b, c) __td_mma64_i32_16x16x16_i8(a, b, c)
