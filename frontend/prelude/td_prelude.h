// tile-doctor device prelude: what a CUDA kernel expects from the SDK, built on clang's own CUDA headers
// (builtin variables, device functions, intrinsics, math) so kernels compile with no CUDA SDK installed.
#pragma once

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
#define __CUDACC__ 1
#define TILE_DOCTOR 1

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INT8_TYPE__ int8_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __INT16_TYPE__ int16_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __INT32_TYPE__ int32_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef unsigned int cuuint32_t;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;

#define INT_MAX __INT_MAX__
#define INT_MIN (-__INT_MAX__ - 1)
#define UINT_MAX (__INT_MAX__ * 2U + 1U)
#define FLT_MAX __FLT_MAX__
#define FLT_MIN __FLT_MIN__
#define FLT_EPSILON __FLT_EPSILON__
#define DBL_MAX __DBL_MAX__
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")

// CUDA vector types (alignment as in the SDK's vector_types.h) and their make_* helpers.
#define TD_VECTOR_TYPES(T, N, A2, A4)                                                      \
  struct N##1 { T x; };                                                                    \
  struct __align__(A2) N##2 { T x, y; };                                                   \
  struct N##3 { T x, y, z; };                                                              \
  struct __align__(A4) N##4 { T x, y, z, w; };                                             \
  static __device__ __host__ __forceinline__ N##1 make_##N##1(T x) { return {x}; }         \
  static __device__ __host__ __forceinline__ N##2 make_##N##2(T x, T y) { return {x, y}; } \
  static __device__ __host__ __forceinline__ N##3 make_##N##3(T x, T y, T z) { return {x, y, z}; } \
  static __device__ __host__ __forceinline__ N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }
TD_VECTOR_TYPES(signed char, char, 2, 4)
TD_VECTOR_TYPES(unsigned char, uchar, 2, 4)
TD_VECTOR_TYPES(short, short, 4, 8)
TD_VECTOR_TYPES(unsigned short, ushort, 4, 8)
TD_VECTOR_TYPES(int, int, 8, 16)
TD_VECTOR_TYPES(unsigned int, uint, 8, 16)
TD_VECTOR_TYPES(long, long, 16, 16)
TD_VECTOR_TYPES(unsigned long, ulong, 16, 16)
TD_VECTOR_TYPES(long long, longlong, 16, 16)
TD_VECTOR_TYPES(unsigned long long, ulonglong, 16, 16)
TD_VECTOR_TYPES(float, float, 8, 16)
TD_VECTOR_TYPES(double, double, 16, 16)
#undef TD_VECTOR_TYPES

struct dim3 {
  unsigned int x, y, z;
  __device__ __host__ constexpr dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1) : x(x), y(y), z(z) {}
};

// clang fixes warpSize at 32 (a constant in its builtin-variables header, kept here under another name); a
// wave-64 target needs the executor's value. Each executor provides __td_warp_size (the CPU reads the
// profile's warp size, the GPU its own). warpSize is an object that reads it wherever an int is wanted:
// not a macro, so that code declaring its own (`constexpr int warpSize = 64;` in tilelang-metax's
// reduce.h, `const int warpSize = ...` in TileLang's HIP templates) still compiles.
#define warpSize __td_clang_warp_size_32
#include <__clang_cuda_builtin_vars.h>
#undef warpSize
#include "td_warp_size.h"
static __device__ constexpr __td_warp_size_value warpSize{};
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_math.h>

// max and min of every other pair of types, overloaded as the SDK's math_functions.hpp does (clang's math
// header has only int, so max(1.5f, 0.25f) became int max(1, 0)): floating point through fmax/fmin (a NaN
// operand yields the other), float with double in double, mixed signedness in the unsigned type.
#define TD_MAX_MIN(R, A, B, MAXF, MINF)                                                              \
  static __device__ __forceinline__ R max(A a, B b) { return MAXF((R)a, (R)b); }                  \
  static __device__ __forceinline__ R min(A a, B b) { return MINF((R)a, (R)b); }
TD_MAX_MIN(unsigned int, unsigned int, unsigned int, umax, umin)
TD_MAX_MIN(unsigned int, int, unsigned int, umax, umin)
TD_MAX_MIN(unsigned int, unsigned int, int, umax, umin)
TD_MAX_MIN(long, long, long, llmax, llmin)
TD_MAX_MIN(unsigned long, unsigned long, unsigned long, ullmax, ullmin)
TD_MAX_MIN(unsigned long, long, unsigned long, ullmax, ullmin)
TD_MAX_MIN(unsigned long, unsigned long, long, ullmax, ullmin)
TD_MAX_MIN(long long, long long, long long, llmax, llmin)
TD_MAX_MIN(unsigned long long, unsigned long long, unsigned long long, ullmax, ullmin)
TD_MAX_MIN(unsigned long long, long long, unsigned long long, ullmax, ullmin)
TD_MAX_MIN(unsigned long long, unsigned long long, long long, ullmax, ullmin)
TD_MAX_MIN(float, float, float, fmaxf, fminf)
TD_MAX_MIN(double, double, double, fmax, fmin)
TD_MAX_MIN(double, float, double, fmax, fmin)
TD_MAX_MIN(double, double, float, fmax, fmin)
#undef TD_MAX_MIN
// abs of the other types, as the SDK declares them (clang's math header has abs(int) only).
static __device__ __forceinline__ long abs(long a) { return labs(a); }
static __device__ __forceinline__ long long abs(long long a) { return llabs(a); }
static __device__ __forceinline__ float abs(float a) { return fabsf(a); }
static __device__ __forceinline__ double abs(double a) { return fabs(a); }

// Atomics (the SDK's sm_20/sm_60 atomic wrappers), on clang's __*Atomic* device functions.
static __device__ __forceinline__ int atomicAdd(int* p, int v) { return __iAtomicAdd(p, v); }
static __device__ __forceinline__ unsigned int atomicAdd(unsigned int* p, unsigned int v) { return __uAtomicAdd(p, v); }
static __device__ __forceinline__ unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { return __ullAtomicAdd(p, v); }
static __device__ __forceinline__ float atomicAdd(float* p, float v) { return __fAtomicAdd(p, v); }
static __device__ __forceinline__ double atomicAdd(double* p, double v) { return __dAtomicAdd(p, v); }
static __device__ __forceinline__ int atomicSub(int* p, int v) { return __iAtomicAdd(p, -v); }
static __device__ __forceinline__ unsigned int atomicSub(unsigned int* p, unsigned int v) { return __uAtomicAdd(p, (unsigned int)-(int)v); }
static __device__ __forceinline__ int atomicExch(int* p, int v) { return __iAtomicExch(p, v); }
static __device__ __forceinline__ unsigned int atomicExch(unsigned int* p, unsigned int v) { return __uAtomicExch(p, v); }
static __device__ __forceinline__ unsigned long long atomicExch(unsigned long long* p, unsigned long long v) { return __ullAtomicExch(p, v); }
static __device__ __forceinline__ float atomicExch(float* p, float v) { return __fAtomicExch(p, v); }
static __device__ __forceinline__ int atomicMax(int* p, int v) { return __iAtomicMax(p, v); }
static __device__ __forceinline__ unsigned int atomicMax(unsigned int* p, unsigned int v) { return __uAtomicMax(p, v); }
static __device__ __forceinline__ long long atomicMax(long long* p, long long v) { return __illAtomicMax(p, v); }
static __device__ __forceinline__ unsigned long long atomicMax(unsigned long long* p, unsigned long long v) { return __ullAtomicMax(p, v); }
static __device__ __forceinline__ int atomicMin(int* p, int v) { return __iAtomicMin(p, v); }
static __device__ __forceinline__ unsigned int atomicMin(unsigned int* p, unsigned int v) { return __uAtomicMin(p, v); }
static __device__ __forceinline__ long long atomicMin(long long* p, long long v) { return __illAtomicMin(p, v); }
static __device__ __forceinline__ unsigned long long atomicMin(unsigned long long* p, unsigned long long v) { return __ullAtomicMin(p, v); }
static __device__ __forceinline__ int atomicCAS(int* p, int c, int v) { return __iAtomicCAS(p, c, v); }
static __device__ __forceinline__ unsigned int atomicCAS(unsigned int* p, unsigned int c, unsigned int v) { return __uAtomicCAS(p, c, v); }
static __device__ __forceinline__ unsigned long long atomicCAS(unsigned long long* p, unsigned long long c, unsigned long long v) { return __ullAtomicCAS(p, c, v); }
static __device__ __forceinline__ int atomicAnd(int* p, int v) { return __iAtomicAnd(p, v); }
static __device__ __forceinline__ unsigned int atomicAnd(unsigned int* p, unsigned int v) { return __uAtomicAnd(p, v); }
static __device__ __forceinline__ int atomicOr(int* p, int v) { return __iAtomicOr(p, v); }
static __device__ __forceinline__ unsigned int atomicOr(unsigned int* p, unsigned int v) { return __uAtomicOr(p, v); }
static __device__ __forceinline__ int atomicXor(int* p, int v) { return __iAtomicXor(p, v); }
static __device__ __forceinline__ unsigned int atomicXor(unsigned int* p, unsigned int v) { return __uAtomicXor(p, v); }


// Address-space conversions (the SDK's cuda_runtime wrappers of clang's __nv_cvta_*_impl).
static __device__ __forceinline__ size_t __cvta_generic_to_shared(const void* p) { return __nv_cvta_generic_to_shared_impl(p); }
static __device__ __forceinline__ size_t __cvta_generic_to_global(const void* p) { return __nv_cvta_generic_to_global_impl(p); }
static __device__ __forceinline__ void* __cvta_shared_to_generic(size_t a) { return __nv_cvta_shared_to_generic_impl(a); }
static __device__ __forceinline__ void* __cvta_global_to_generic(size_t a) { return __nv_cvta_global_to_generic_impl(a); }

// Device printf (clang lowers it to the device runtime's vprintf) and assert, declared as clang's CUDA
// runtime wrapper does: printf for the device only, so that the C library's host printf (<cstdio>,
// <stdio.h>) is its host-side overload, and the C library's assert (<cassert>) calls a device __assert_fail.
extern "C" __device__ int printf(const char* format, ...);
extern "C" __device__ void __assertfail(const char* message, const char* file, unsigned int line, const char* function,
                                        size_t charSize);
extern "C" {
__device__ static inline void __assert_fail(const char* message, const char* file, unsigned int line,
                                            const char* function) {
  __assertfail(message, file, line, function, sizeof(char));
}
}
#ifndef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))
#endif
#endif

#include "td_async_copy.h"

#ifndef TD_HIP_DIALECT  // HIP code has its own half types (td_hip.h; TileLang's templates: half_t = _Float16)
#include "td_fp16.h"
#endif
