// tile-doctor's MACA prelude: what MACA-dialect code (tilelang-metax's output: CUDA C++ with MetaX's
// `__builtin_mxc_*` builtins, compiled by mxcc, a clang 19) takes from the MACA SDK, written here from
// the published descriptions (../shared/research/metax-tilelang.md sec. 1.3-1.6), since no MACA header is
// public. Every SDK header name it includes (mcr/mc_runtime.h, common/maca_fp16.h, ...) resolves to this
// file. The semantics are the documented ones where a source gives them and tile-doctor's reading
// otherwise; docs/guide-metax.md lists which is which. Nothing here was run on MetaX hardware.
#pragma once
#include <stdint.h>
#ifdef __CUDACC_VER_MAJOR__  // headers = "cuda" (CuTe/CUTLASS code): the SDK's half and bfloat16 stand for MACA's
#include <cuda_fp16.h>
#include <cuda_bf16.h>
// clang's CUDA headers fixed warpSize at 32 before this file; the wave's size is the executor's, as the
// prelude's warpSize reads it. A macro here: code declaring its own (`constexpr int warpSize = 64;` in a
// namespace or class) still compiles.
#include <td_warp_size.h>
static __device__ constexpr __td_warp_size_value __td_maca_warpSize{};
#define warpSize __td_maca_warpSize
#endif

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
// The runtime's error API as the templates' host-side macros name it (TILELANG_CHECK): nothing fails here.
__host__ __device__ inline const char* mcGetErrorName(mcError_t) { return "mcSuccess"; }
__host__ __device__ inline const char* mcGetErrorString(mcError_t) { return "no error"; }
__host__ __device__ inline mcError_t mcGetLastError() { return mcSuccess; }
__host__ __device__ inline mcError_t mcPeekAtLastError() { return mcSuccess; }

// The SDK's vector-type macro (`using WsmUint4 = __NATIVE_VECTOR__(4, uint);` in gemm_wsm.h).
#define __NATIVE_VECTOR__(N, T) T __attribute__((__vector_size__((N) * sizeof(T))))

// ---- 64-bit lane masks --------------------------------------------------------------------------------
// MACA's warp functions take a 64-bit mask (`_FULL_WARP_MASK = 0xFFFFFFFFFFFFFFFF`). For shuffles and
// __syncwarp the mask is not used: the IR lowers a shuffle to mbcnt + bpermute and __syncwarp to
// llvm.mxc.barrier.warp, neither with a mask operand, and tilelang-metax's warp-sync test shuffles 64 lanes
// under the 32-bit mask 0xFFFFFFFF. So every mask, of any width (the templates' canonical_warp_idx_sync
// passes 0xffffffff), means the whole wave, `width` lanes per group, and raises no warp-size question.
#include <td_wave64.h>
template <typename M, typename T> __device__ inline T __td_maca_shfl_sync(M, T v, int lane, int width = __td_warp_size()) {
  return __td_shfl_words(v, [&](auto w) { return __td_wave_shfl(w, lane, width); });
}
template <typename M, typename T> __device__ inline T __td_maca_shfl_xor_sync(M, T v, int m, int width = __td_warp_size()) {
  return __td_shfl_words(v, [&](auto w) { return __td_wave_shfl_xor(w, m, width); });
}
template <typename M, typename T> __device__ inline T __td_maca_shfl_down_sync(M, T v, unsigned d, int width = __td_warp_size()) {
  return __td_shfl_words(v, [&](auto w) { return __td_wave_shfl_down(w, d, width); });
}
template <typename M, typename T> __device__ inline T __td_maca_shfl_up_sync(M, T v, unsigned d, int width = __td_warp_size()) {
  return __td_shfl_words(v, [&](auto w) { return __td_wave_shfl_up(w, d, width); });
}
#define __shfl_sync __td_maca_shfl_sync
#define __shfl_xor_sync __td_maca_shfl_xor_sync
#define __shfl_down_sync __td_maca_shfl_down_sync
#define __shfl_up_sync __td_maca_shfl_up_sync
// (the executor's masks hold 32 lanes: the wave's active lanes stand for "the whole wave")
__device__ inline void __td_maca_syncwarp() { __nvvm_bar_warp_sync(__nvvm_activemask()); }
template <typename M> __device__ inline void __td_maca_syncwarp(M) { __td_maca_syncwarp(); }
#define __syncwarp(...) __td_maca_syncwarp(__VA_ARGS__)
// A value the whole wave holds alike (the templates apply it to `threadIdx.x / 64`): the value itself.
template <typename T> __device__ inline T __builtin_mxc_readfirstlane(T v) { return v; }

// The 16-lane row operations (newer forks' common.h builds xor 1/2/4/8 shuffles on them):
// __builtin_mxc_update_shfl(old, src, mode, row_mask, bank_mask, bound_ctrl) and __builtin_mxc_mov_shfl(src,
// mode, row_mask, bank_mask, bound_ctrl) exchange within each 16-lane row, as AMD's DPP does (a public MetaX
// porting guide: "the 16-lane row operations (mirror, row shift, row rotate, row broadcast)"; the fork's
// comments: 0x0b1 is the quad permutation [1,0,3,2], 0x04e [2,3,0,1], xor 4 two masked row shifts). Modes as
// DPP numbers them: 0x00-0xff quad permutation (two bits a lane of each quad), 0x101-0x10f row_shl n (lane
// r reads r + n), 0x111-0x11f row_shr n (r - n), 0x121-0x12f row_ror n, 0x140 row_mirror, 0x141
// row_half_mirror. A lane writes only where its row's bit in row_mask and its bank's (4 lanes) bit in
// bank_mask are set, else it keeps `old`; a source outside the row gives 0 with bound_ctrl, else `old`.
// The row broadcasts (0x142, 0x143) cross rows and are not modelled (0 and a compile-time error alike
// would be guesses): they stop the kernel's run with a trap.
__device__ inline int __td_maca_row_source(int mode, int r) {
  if (mode < 0x100) return (r & ~3) | ((mode >> (2 * (r & 3))) & 3);
  int n = mode & 0xf;
  if (mode >= 0x101 && mode <= 0x10f) return r + n < 16 ? r + n : -1;
  if (mode >= 0x111 && mode <= 0x11f) return r - n >= 0 ? r - n : -1;
  if (mode >= 0x121 && mode <= 0x12f) return (r - n) & 15;
  if (mode == 0x140) return 15 - r;
  if (mode == 0x141) return (r & 8) | (7 - (r & 7));
  __trap();
  return -1;
}
__device__ inline int __builtin_mxc_update_shfl(int old, int src, int mode, int row_mask, int bank_mask, bool bound_ctrl) {
  const int lane = __td_wave_lane();
  const int r = lane & 15, from = __td_maca_row_source(mode, r);
  int v = __td_wave_shfl(src, (lane & ~15) | (from < 0 ? r : from), __td_warp_size());
  if (!((row_mask >> (lane / 16)) & 1) || !((bank_mask >> (r / 4)) & 1)) return old;
  return from >= 0 ? v : bound_ctrl ? 0 : old;
}
__device__ inline int __builtin_mxc_mov_shfl(int src, int mode, int row_mask, int bank_mask, bool bound_ctrl) {
  return __builtin_mxc_update_shfl(src, src, mode, row_mask, bank_mask, bound_ctrl);
}

// ---- reduce intrinsics: the mask's type sets the group (measured on a C550, MACA 3.5.3.18: "the full
// unsigned 32-bit mask operates on 32-element groups, while its full unsigned-long 64-bit mask operates on
// 64-element groups") ------------------------------------------------------------------------------------
// The 32-bit form synchronises the lanes its mask names first, so the sync check sees the 32-lane mask on
// a 64-lane wave (warp-size-assumption) at the caller's line.
template <typename Op> __device__ inline int __td_maca_reduce(int v, int width, Op op) {
  for (int offset = width / 2; offset > 0; offset /= 2) v = op(v, __td_wave_shfl_xor(v, offset, width));
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
// The block's barrier instruction (TileLang's T.maca_barrier_inst; gemm_wsm.h after its copies' count wait).
__device__ inline void __builtin_mxc_barrier_inst() { __syncthreads(); }

// memcpy_async<N>(dst, src) starts an N-byte copy (4, 8, 16) from global into shared memory and returns a
// ticket typed by the copy's width: tilelang-metax's codegen declares its tickets `b32vectype`,
// `b64vectype` or `b128vectype` by the copy's bytes (lower_maca_memcpy_async.cc). What a wait means is
// taken from the SDK's source as a public study of MXCC's conditional async copies quotes it (TileOPs-Metax
// profile v017, __clang_maca_device_functions.h lines 3775-3780 and 3837-3845, SDK 3.7.1.5):
// memcpy_async<8> is __builtin_mxc_ldg_b64_bsm, and barrier_arrive_and_wait's scope defaults to the block
// (thread_scope_block, __builtin_mxc_barrier_and_wait2): it issues a block barrier. Its wait is a count of
// the thread's outstanding copies (the machine code's ARRIVE n), so
//   barrier_arrive_and_wait(ticket): the thread's copies up to and including the ticket's land (later ones
//   stay in flight), then the block's barrier.
// A ticket here holds the number of the thread's copy; a read of a copy whose ticket no wait covered
// reads what was there before.
#include <td_counted_copy.h>
typedef uint32_t b32vectype;
typedef __NATIVE_VECTOR__(2, uint32_t) b64vectype;
typedef __NATIVE_VECTOR__(4, uint32_t) b128vectype;
template <int Bytes> struct __td_maca_ticket_type {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "memcpy_async copies 4, 8 or 16 bytes");
};
template <> struct __td_maca_ticket_type<4> { typedef b32vectype type; };
template <> struct __td_maca_ticket_type<8> { typedef b64vectype type; };
template <> struct __td_maca_ticket_type<16> { typedef b128vectype type; };
__device__ inline uint32_t __td_maca_ticket_number(b32vectype t) { return t; }
__device__ inline uint32_t __td_maca_ticket_number(b64vectype t) { return t[0]; }
__device__ inline uint32_t __td_maca_ticket_number(b128vectype t) { return t[0]; }

// Issues one copy (none when `copy` is false; zeros where srcBytes < Bytes), counted on its own, and returns
// its ticket.
template <int Bytes> __device__ inline typename __td_maca_ticket_type<Bytes>::type __td_maca_issue(void* dst, const void* src,
                                                                                                  bool copy, int srcBytes) {
  uint32_t number = __td_counted_copy<Bytes>(dst, src, copy, srcBytes);
  typename __td_maca_ticket_type<Bytes>::type ticket = {};
  if constexpr (Bytes == 4) ticket = number;
  else ticket[0] = number;
  return ticket;
}
template <int Bytes> __device__ inline typename __td_maca_ticket_type<Bytes>::type memcpy_async(void* dst, const void* src) {
  return __td_maca_issue<Bytes>(dst, src, true, Bytes);
}
template <typename T> __device__ inline void __td_maca_wait_ticket(T ticket) {
  asm volatile("td.cp.async.wait_ticket %0;" ::"r"(__td_maca_ticket_number(ticket)) : "memory");
}
template <typename T> __device__ inline void barrier_arrive_and_wait(T ticket) {
  __td_maca_wait_ticket(ticket);
  __syncthreads();
}

// The predicated forms compare two integers (LLVM's icmp predicates; the enumerators' values are
// tile-doctor's, the SDK's are not public). memcpy_async_pred<N, CMP, fill>(dst, src, a, b): the copy when
// `a CMP b`, else zeros with `fill`, else nothing (flashinfer's MACA port: "fill_mode: whether to fill zero
// to shared memory when predicate is false").
enum __td_maca_icmp {
  MACA_ICMP_EQ, MACA_ICMP_NE, MACA_ICMP_UGT, MACA_ICMP_UGE, MACA_ICMP_ULT, MACA_ICMP_ULE,
  MACA_ICMP_SGT, MACA_ICMP_SGE, MACA_ICMP_SLT, MACA_ICMP_SLE
};
__device__ inline bool __td_maca_compare(int cmp, long long a, long long b) {
  unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
  switch (cmp) {
    case MACA_ICMP_EQ: return a == b;
    case MACA_ICMP_NE: return a != b;
    case MACA_ICMP_UGT: return ua > ub;
    case MACA_ICMP_UGE: return ua >= ub;
    case MACA_ICMP_ULT: return ua < ub;
    case MACA_ICMP_ULE: return ua <= ub;
    case MACA_ICMP_SGT: return a > b;
    case MACA_ICMP_SGE: return a >= b;
    case MACA_ICMP_SLT: return a < b;
    default: return a <= b;
  }
}
template <int Bytes, int Cmp, bool Fill = false, typename A, typename B>
__device__ inline typename __td_maca_ticket_type<Bytes>::type memcpy_async_pred(void* dst, const void* src, A a, B b) {
  bool pass = __td_maca_compare(Cmp, (long long)a, (long long)b);
  return __td_maca_issue<Bytes>(dst, src, pass || Fill, pass ? Bytes : 0);
}
// gemm_wsm.h's 16-byte form: copied when `a CMP b`; the middle operands (a cache hint and four flags in the
// templates' calls) are not modelled. Its copies are waited for by count (__builtin_mxc_arrive_gvmcnt).
template <typename D, typename S>
__device__ inline b128vectype __builtin_mxc_ldg_b128_bsm_predicator(D* dst, S* src, int, bool, bool, bool, bool, int a,
                                                                    int b, int cmp) {
  return __td_maca_issue<16>((void*)dst, (const void*)src, __td_maca_compare(cmp, a, b), 16);
}
// __builtin_mxc_arrive_gvmcnt(n): the thread waits until at most n of its copies are outstanding.
__device__ inline void __builtin_mxc_arrive_gvmcnt(unsigned n) { __td_counted_copy_wait(n); }
// __builtin_mxc_barrier_and_wait{1,2,4}(scope, ticket): the ticket's wait at a scope; 0 is the wave (a
// public MetaX probe: "the scope-0 (wave-scope) barrier_and_wait4"), any other value taken as the block.
#define TD_MACA_BARRIER_AND_WAIT(NAME)                                                                     \
  template <typename T> __device__ inline void NAME(int scope, T ticket) {                                \
    __td_maca_wait_ticket(ticket);                                                                        \
    if (scope == 0) __td_maca_syncwarp();                                                                 \
    else __syncthreads();                                                                                 \
  }
TD_MACA_BARRIER_AND_WAIT(__builtin_mxc_barrier_and_wait1)
TD_MACA_BARRIER_AND_WAIT(__builtin_mxc_barrier_and_wait2)
TD_MACA_BARRIER_AND_WAIT(__builtin_mxc_barrier_and_wait4)
#undef TD_MACA_BARRIER_AND_WAIT

// mcTlass's copies, in its namespace (tl_templates/maca/copy.h): maca_cp_async_zfill<N>(dst, src, valid)
// copies N bytes, zeros where `valid` is false; maca_cp_async_wait<N>() waits until at most N are
// outstanding (no commit groups on MACA: each copy is counted).
namespace mctlass {
namespace arch {
template <int N> __device__ inline void maca_cp_async_zfill(void* dst, const void* src, bool valid = true) {
  __td_maca_issue<N>(dst, src, true, valid ? N : 0);
}
template <int N> __device__ inline void maca_cp_async_wait() { __builtin_mxc_arrive_gvmcnt(N); }
}  // namespace arch
}  // namespace mctlass
using mctlass::arch::maca_cp_async_wait;
using mctlass::arch::maca_cp_async_zfill;

// ---- the SDK's 16-bit types, conversions and atomics (maca_fp16.h, maca_bfloat16.h), as CUDA's ------------
typedef __nv_bfloat16 maca_bfloat16;
typedef __nv_bfloat16 __maca_bfloat16;
typedef __nv_bfloat162 maca_bfloat162;
typedef __nv_bfloat162 __maca_bfloat162;
#ifndef __CUDACC_VER_MAJOR__  // the SDK has these (its 16-bit CAS through td_sdk_builtins.h's)
__device__ inline __half2 __float22half2_rn(float2 f) { return {__half(f.x), __half(f.y)}; }
// A 16-bit compare-and-swap of its own two bytes (a CAS of the aligned word would reach past a 2-byte buffer).
__device__ inline unsigned short atomicCAS(unsigned short* p, unsigned short compare, unsigned short value) {
  __atomic_compare_exchange_n(p, &compare, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;  // the value found: the expected one when the swap happened
}
#endif
// atomicAdd on 16-bit floats and their pairs: a compare-and-swap loop, each addition rounded once as the
// type's own addition rounds it.
template <typename T> __device__ inline T __td_maca_atomic_add16(T* p, T v) {
  unsigned short* q = (unsigned short*)p;
  unsigned short old = *q, assumed;
  do {
    assumed = old;
    T current, sum;
    __builtin_memcpy(&current, &assumed, 2);
    sum = current + v;
    unsigned short bits;
    __builtin_memcpy(&bits, &sum, 2);
    old = atomicCAS(q, assumed, bits);
  } while (old != assumed);
  T before;
  __builtin_memcpy(&before, &old, 2);
  return before;
}
#ifndef __CUDACC_VER_MAJOR__  // the SDK has these (sm_70 and sm_80 and up)
__device__ inline __half atomicAdd(__half* p, __half v) { return __td_maca_atomic_add16(p, v); }
__device__ inline __nv_bfloat16 atomicAdd(__nv_bfloat16* p, __nv_bfloat16 v) { return __td_maca_atomic_add16(p, v); }
__device__ inline __half2 atomicAdd(__half2* p, __half2 v) {
  return {__td_maca_atomic_add16(&p->x, v.x), __td_maca_atomic_add16(&p->y, v.y)};
}
__device__ inline __nv_bfloat162 atomicAdd(__nv_bfloat162* p, __nv_bfloat162 v) {
  return {__td_maca_atomic_add16(&p->x, v.x), __td_maca_atomic_add16(&p->y, v.y)};
}
#endif

// ---- matrix: MetaX's MXC MMA, 16x16 tiles over 64 lanes x 4 elements, fp32 (or int32) accumulators; the
// operands in the order given (TileLang writes (B_local, A_local, acc)). Functions, not macros, so braced
// operands work (`__builtin_mxc_mma_16x16x8tf32({a, 0.0f}, {b, 0.0f}, c)` in tl_templates/maca/mma.h): each
// takes its SDK operand types, or any operand of the right size bit for bit. -------------------------------
#include <td_matrix64.h>
// A braced operand: an aggregate of the operand's elements (a braced list cannot become a vector parameter).
template <typename E, int N> struct __td_maca_list {
  E v[N];
};
#define TD_MACA_MMA(NAME, IMPL, E, N, C)                                                                   \
  __device__ inline C NAME(__td_maca_list<E, N> a, __td_maca_list<E, N> b, C c) { return IMPL(a, b, c); }  \
  template <typename AT, typename BT, typename CT> __device__ inline C NAME(AT a, BT b, CT c) {          \
    return IMPL(a, b, c);                                                                                 \
  }
TD_MACA_MMA(__td_maca_mma_16x16x16f16, __td_mma64_f32_16x16x16_f16, _Float16, 4, __td_f32x4)
TD_MACA_MMA(__td_maca_mma_16x16x16bf16, __td_mma64_f32_16x16x16_bf16, short, 4, __td_f32x4)
TD_MACA_MMA(__td_maca_mma_16x16x8tf32, __td_mma64_f32_16x16x8_tf32, float, 2, __td_f32x4)
TD_MACA_MMA(__td_maca_mma_16x16x32f8, __td_mma64_f32_16x16x32_fp8, int, 2, __td_f32x4)
TD_MACA_MMA(__td_maca_mma_16x16x32bf8, __td_mma64_f32_16x16x32_bf8, int, 2, __td_f32x4)
TD_MACA_MMA(__td_maca_mma_16x16x32i8, __td_mma64_i32_16x16x32_i8, int, 2, __td_i32x4)
#undef TD_MACA_MMA
// int8 at K = 16 (xcore1000): one word of A and B. The templates pass two words with the second zero
// (`{a, 0}` in mma.h): the first is taken.
template <typename T> __device__ inline int __td_maca_low_word(const T& v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "an int8 MMA operand of one or two words");
  int w;
  __builtin_memcpy(&w, &v, 4);
  return w;
}
__device__ inline __td_i32x4 __td_maca_mma_16x16x16i8(__td_maca_list<int, 2> a, __td_maca_list<int, 2> b, __td_i32x4 c) {
  return __td_mma64_i32_16x16x16_i8(a.v[0], b.v[0], c);
}
template <typename AT, typename BT, typename CT> __device__ inline __td_i32x4 __td_maca_mma_16x16x16i8(AT a, BT b, CT c) {
  return __td_mma64_i32_16x16x16_i8(__td_maca_low_word(a), __td_maca_low_word(b), c);
}
__device__ inline __td_f32x4 __td_maca_mma_16x16x4f32(float a, float b, __td_f32x4 c) {
  return __td_mma64_f32_16x16x4_f32(a, b, c);
}
// fp64 tiles (one double of A and of B a lane, four double accumulators). MetaX's fp64 layout is not public;
// tile-doctor takes the fp32 K = 4 one: A[i][k] in lane i + 16k, B[k][j] in lane j + 16k, D[i][j] in lane
// j + 16(i/4), element i%4. Computed through the wave's shuffles, the products added to C in k order, each
// by one fused multiply-add in double (MetaX's order and rounding are not public either).
typedef double __td_f64x4 __attribute__((__vector_size__(32)));
template <typename CT> __device__ inline __td_f64x4 __td_maca_mma_16x16x4f64(double a, double b, CT c) {
  static_assert(sizeof(CT) == 32, "an fp64 MMA accumulator of four doubles");
  __td_f64x4 d;
  __builtin_memcpy(&d, &c, 32);
  const int lane = __td_wave_lane();
  for (int k = 0; k < 4; ++k) {  // shuffles ignore their mask on MACA: 0 stands for the whole wave
    double bk = __td_maca_shfl_sync(0, b, lane % 16 + 16 * k);
    for (int e = 0; e < 4; ++e) d[e] = __builtin_fma(__td_maca_shfl_sync(0, a, 4 * (lane / 16) + e + 16 * k), bk, d[e]);
  }
  return d;
}
#define __builtin_mxc_mma_16x16x16f16(...) __td_maca_mma_16x16x16f16(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x16bf16(...) __td_maca_mma_16x16x16bf16(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x8tf32(...) __td_maca_mma_16x16x8tf32(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x16i8(...) __td_maca_mma_16x16x16i8(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x32i8(...) __td_maca_mma_16x16x32i8(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x32f8(...) __td_maca_mma_16x16x32f8(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x32bf8(...) __td_maca_mma_16x16x32bf8(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x4f32(...) __td_maca_mma_16x16x4f32(__VA_ARGS__)
#define __builtin_mxc_mma_16x16x4f64(...) __td_maca_mma_16x16x4f64(__VA_ARGS__)
