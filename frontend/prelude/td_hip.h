// tile-doctor's HIP prelude: what HIP code generated for a wave-64 GPU (TileLang's HIP backend, the stand-in
// for MetaX's MACA backend) and TileLang's tl_templates/hip take from ROCm, written here so that no ROCm is
// needed. The source compiles as CUDA for NVPTX on top of the CUDA SDK's device headers and runs on the
// CPU executor at the profile's wave size; every HIP header name the templates include (hip/hip_runtime.h,
// hip/hip_fp16.h, hip/hip_bf16.h, hip/amd_detail/*, rocwmma/rocwmma.hpp) resolves to this file.
// Semantics follow the HIP programming guide (warp functions: width defaults to warpSize, 64 on CDNA) and
// the CDNA3 ISA (MFMA operand layouts, runtime/cpu/mfma_semantics.cpp).
#pragma once
#include <stdint.h>
#include <cstdint>

#define TILE_DOCTOR_HIP 1

// ---- runtime API: only named by TileLang's host-side error macros -----------------------------------
typedef int hipError_t;
#define hipSuccess 0
__host__ __device__ inline const char* hipGetErrorName(hipError_t) { return "hipError"; }
__host__ __device__ inline const char* hipGetErrorString(hipError_t) { return "hipError"; }
__host__ __device__ inline hipError_t hipGetLastError() { return hipSuccess; }

// ---- atomics with an explicit memory order and scope (clang's HIP builtins) ---------------------------
#define __HIP_MEMORY_SCOPE_SINGLETHREAD 1
#define __HIP_MEMORY_SCOPE_WAVEFRONT 2
#define __HIP_MEMORY_SCOPE_WORKGROUP 3
#define __HIP_MEMORY_SCOPE_AGENT 4
#define __HIP_MEMORY_SCOPE_SYSTEM 5
// __hip_atomic_load / __hip_atomic_store are clang builtins in every CUDA-family language.

// ---- wave queries --------------------------------------------------------------------------------------
// The executor's wave size (the target profile's), as HIP's warpSize and the AMDGPU builtin give it. A
// function, not `warpSize` in the macro: TileLang writes `const int warpSize = __builtin_amdgcn_wavefrontsize();`.
__device__ inline int __td_wavefront_size() { return warpSize; }
#define __builtin_amdgcn_wavefrontsize() __td_wavefront_size()
__device__ inline unsigned __lane_id() { return __nvvm_read_ptx_sreg_laneid(); }
// TileLang's templates apply it to wave-uniform values only (buffer resources, the LDS base): the value
// itself is what the first lane holds there.
template <typename T> __device__ inline T __builtin_amdgcn_readfirstlane(T v) { return v; }

// ---- warp shuffles ------------------------------------------------------------------------------------
// HIP's mask-less __shfl, __shfl_up, __shfl_down and __shfl_xor with `width` lanes per group (default the
// whole wave) are clang's own (__clang_cuda_intrinsics.h): their NVVM shuffle carries the group as
// ((warpSize - width) << 8), which the executor reads at the profile's wave size. The 16-bit types travel
// as 32-bit words (td_wave64.h).
#include <td_wave64.h>
#define TD_HIP_SHFL_WORDS(T)                                                                              \
  __device__ inline T __shfl(T v, int lane, int width = warpSize) {                                     \
    return __td_shfl_words(v, [&](int w) { return __shfl(w, lane, width); });                           \
  }                                                                                                      \
  __device__ inline T __shfl_up(T v, unsigned d, int width = warpSize) {                                \
    return __td_shfl_words(v, [&](int w) { return __shfl_up(w, d, width); });                           \
  }                                                                                                      \
  __device__ inline T __shfl_down(T v, unsigned d, int width = warpSize) {                              \
    return __td_shfl_words(v, [&](int w) { return __shfl_down(w, d, width); });                         \
  }                                                                                                      \
  __device__ inline T __shfl_xor(T v, int m, int width = warpSize) {                                    \
    return __td_shfl_words(v, [&](int w) { return __shfl_xor(w, m, width); });                          \
  }

// ---- half math the templates name (OCML) ----------------------------------------------------------------
__device__ inline _Float16 __ocml_sqrt_f16(_Float16 x) { return (_Float16)__builtin_sqrtf((float)x); }
__device__ inline _Float16 __ocml_pown_f16(_Float16 x, int n) { return (_Float16)__builtin_powif((float)x, n); }
// max/min of two halves, as ROCm's math headers give them (IEEE fmax/fmin: a NaN operand yields the other);
// without them the int/float/double overloads are equally good for _Float16 arguments.
__device__ inline _Float16 max(_Float16 a, _Float16 b) { return (_Float16)__builtin_fmaxf((float)a, (float)b); }
__device__ inline _Float16 min(_Float16 a, _Float16 b) { return (_Float16)__builtin_fminf((float)a, (float)b); }

// ---- HIP's vector types construct from components: float4(x, y, z, w), float2(v) -------------------------
// The CUDA SDK's vector types are plain structs (already declared by the time this prelude is read), so
// HIP's constructor syntax becomes a call: a function-like macro expands only where the name is followed by
// "(", which leaves declarations and casts (`float4 v;`, `(float4*)p`) alone.
#define TD_HIP_VECTOR_CTORS(T, E)                                                                         \
  __host__ __device__ inline T __td_make_##T() { return T{}; }                                          \
  __host__ __device__ inline T __td_make_##T(E v) { T r; E* c = &r.x; for (int i = 0; i < (int)(sizeof(T) / sizeof(E)); ++i) c[i] = v; return r; } \
  __host__ __device__ inline T __td_make_##T(const T& v) { return v; }
TD_HIP_VECTOR_CTORS(float2, float)
TD_HIP_VECTOR_CTORS(float4, float)
TD_HIP_VECTOR_CTORS(int2, int)
TD_HIP_VECTOR_CTORS(int4, int)
TD_HIP_VECTOR_CTORS(uint2, unsigned int)
TD_HIP_VECTOR_CTORS(uint4, unsigned int)
#undef TD_HIP_VECTOR_CTORS
__host__ __device__ inline float2 __td_make_float2(float x, float y) { return make_float2(x, y); }
__host__ __device__ inline float4 __td_make_float4(float x, float y, float z, float w) { return make_float4(x, y, z, w); }
__host__ __device__ inline int2 __td_make_int2(int x, int y) { return make_int2(x, y); }
__host__ __device__ inline int4 __td_make_int4(int x, int y, int z, int w) { return make_int4(x, y, z, w); }
__host__ __device__ inline uint2 __td_make_uint2(unsigned x, unsigned y) { return make_uint2(x, y); }
__host__ __device__ inline uint4 __td_make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return make_uint4(x, y, z, w); }
#define float2(...) __td_make_float2(__VA_ARGS__)
#define float4(...) __td_make_float4(__VA_ARGS__)
#define int2(...) __td_make_int2(__VA_ARGS__)
#define int4(...) __td_make_int4(__VA_ARGS__)
#define uint2(...) __td_make_uint2(__VA_ARGS__)
#define uint4(...) __td_make_uint4(__VA_ARGS__)

// ---- packed halves as hip_fp16.h declares them (TileLang's HIP code addresses their .x and .y) --------
struct __half2 {
  _Float16 x, y;
};
typedef __half2 half2;

// ---- hip_bfloat16: 16 bits of a float, rounded to nearest even on conversion (ROCm's default) ----------
struct hip_bfloat16 {
  uint16_t data;
  __host__ __device__ hip_bfloat16() = default;
  __host__ __device__ hip_bfloat16(float f) : data(round(f)) {}
  __host__ __device__ explicit hip_bfloat16(double f) : data(round((float)f)) {}
  __host__ __device__ explicit hip_bfloat16(int i) : data(round((float)i)) {}
  __host__ __device__ operator float() const {
    uint32_t u = uint32_t(data) << 16;
    float f;
    __builtin_memcpy(&f, &u, 4);
    return f;
  }
  __host__ __device__ explicit operator bool() const { return (data & 0x7fff) != 0; }
  __host__ __device__ static uint16_t round(float f) {
    uint32_t u;
    __builtin_memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);  // NaN stays a quiet NaN
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
  }
  __host__ __device__ hip_bfloat16& operator+=(hip_bfloat16 o) { return *this = float(*this) + float(o); }
  __host__ __device__ hip_bfloat16& operator-=(hip_bfloat16 o) { return *this = float(*this) - float(o); }
  __host__ __device__ hip_bfloat16& operator*=(hip_bfloat16 o) { return *this = float(*this) * float(o); }
  __host__ __device__ hip_bfloat16& operator/=(hip_bfloat16 o) { return *this = float(*this) / float(o); }
};
__host__ __device__ inline hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) { return float(a) + float(b); }
__host__ __device__ inline hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) { return float(a) - float(b); }
__host__ __device__ inline hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) { return float(a) * float(b); }
__host__ __device__ inline hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) { return float(a) / float(b); }
__host__ __device__ inline hip_bfloat16 operator-(hip_bfloat16 a) {
  hip_bfloat16 r = a;
  r.data ^= 0x8000;
  return r;
}
__host__ __device__ inline bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
__host__ __device__ inline bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return float(a) > float(b); }
__host__ __device__ inline bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) <= float(b); }
__host__ __device__ inline bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) >= float(b); }
__host__ __device__ inline bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
__host__ __device__ inline bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) != float(b); }
TD_HIP_SHFL_WORDS(_Float16)
TD_HIP_SHFL_WORDS(hip_bfloat16)
#undef TD_HIP_SHFL_WORDS

// ---- fp8 (OCP e4m3 / e5m2, and the gfx94x FNUZ variants): the storage and float conversions ----------
typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;
enum __hip_fp8_interpretation_t { __HIP_E4M3 = 0, __HIP_E5M2 = 1, __HIP_E4M3_FNUZ = 2, __HIP_E5M2_FNUZ = 3 };
enum __hip_saturation_t { __HIP_NOSAT = 0, __HIP_SATFINITE = 1 };
// Exponent and mantissa bits, exponent bias and the largest finite value of each interpretation.
__host__ __device__ inline int __td_fp8_mbits(__hip_fp8_interpretation_t t) { return t == __HIP_E4M3 || t == __HIP_E4M3_FNUZ ? 3 : 2; }
__host__ __device__ inline int __td_fp8_bias(__hip_fp8_interpretation_t t) {
  return t == __HIP_E4M3 ? 7 : t == __HIP_E5M2 ? 15 : t == __HIP_E4M3_FNUZ ? 8 : 16;
}
__host__ __device__ inline float __td_fp8_max(__hip_fp8_interpretation_t t) {
  return t == __HIP_E4M3 ? 448.f : t == __HIP_E5M2 ? 57344.f : t == __HIP_E4M3_FNUZ ? 240.f : 57344.f;
}
__host__ __device__ inline float __td_fp8_to_float(__hip_fp8_storage_t b, __hip_fp8_interpretation_t t) {
  int mb = __td_fp8_mbits(t), eb = 7 - mb, bias = __td_fp8_bias(t);
  bool fnuz = t == __HIP_E4M3_FNUZ || t == __HIP_E5M2_FNUZ;
  int sign = b >> 7, e = (b >> mb) & ((1 << eb) - 1), m = b & ((1 << mb) - 1);
  if (fnuz && b == 0x80) return __builtin_nanf("");
  if (!fnuz && t == __HIP_E4M3 && e == 15 && m == 7) return __builtin_nanf("");
  if (!fnuz && t == __HIP_E5M2 && e == 31) return m ? __builtin_nanf("") : (sign ? -__builtin_inff() : __builtin_inff());
  float v = e == 0 ? __builtin_ldexpf((float)m, 1 - bias - mb) : __builtin_ldexpf((float)(m | (1 << mb)), e - bias - mb);
  return sign ? -v : v;
}
// Round to nearest even; saturating to the largest finite value, or (not saturating) to NaN / infinity.
__host__ __device__ inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(float f, __hip_saturation_t sat,
                                                                       __hip_fp8_interpretation_t t) {
  int mb = __td_fp8_mbits(t), bias = __td_fp8_bias(t);
  bool fnuz = t == __HIP_E4M3_FNUZ || t == __HIP_E5M2_FNUZ;
  unsigned char nan = fnuz ? 0x80 : 0x7f;
  if (f != f) return nan;
  unsigned char sign = f < 0 || (f == 0 && __builtin_signbit(f)) ? 0x80 : 0;
  float a = f < 0 ? -f : f, mx = __td_fp8_max(t);
  if (a > mx) {
    if (sat == __HIP_SATFINITE) a = mx;
    else return t == __HIP_E5M2 ? (unsigned char)(sign | 0x7c) : (unsigned char)(sign | nan);
  }
  // Scale so that the kept mantissa bits are the integer part, then round half to even.
  int e;
  __builtin_frexpf(a, &e);  // a = frac * 2^e, frac in [0.5, 1)
  int exp = e - 1 < 1 - bias ? 1 - bias : e - 1;
  float scaled = __builtin_ldexpf(a, mb - exp);
  float r = __builtin_rintf(scaled);
  unsigned q = (unsigned)r;
  if (q >> (mb + 1)) { q >>= 1; ++exp; }  // rounding carried into the next binade
  unsigned char out = q < (1u << mb) ? (unsigned char)q
                                     : (unsigned char)(((exp + bias) << mb) | (q & ((1u << mb) - 1)));
  if (q == 0) return fnuz ? 0 : sign;  // FNUZ has no negative zero
  return (unsigned char)(sign | out);
}
#define TD_HIP_FP8(NAME, INTERP)                                                                          \
  struct NAME {                                                                                          \
    __hip_fp8_storage_t __x;                                                                             \
    __host__ __device__ NAME() = default;                                                                \
    __host__ __device__ NAME(float f) : __x(__hip_cvt_float_to_fp8(f, __HIP_SATFINITE, INTERP)) {}      \
    __host__ __device__ operator float() const { return __td_fp8_to_float(__x, INTERP); }                \
  };                                                                                                     \
  struct NAME##x2_t { __hip_fp8x2_storage_t __x; };                                                      \
  struct NAME##x4_t { __hip_fp8x4_storage_t __x; };
TD_HIP_FP8(__hip_fp8_e4m3, __HIP_E4M3)
TD_HIP_FP8(__hip_fp8_e5m2, __HIP_E5M2)
TD_HIP_FP8(__hip_fp8_e4m3_fnuz, __HIP_E4M3_FNUZ)
TD_HIP_FP8(__hip_fp8_e5m2_fnuz, __HIP_E5M2_FNUZ)
#undef TD_HIP_FP8
typedef __hip_fp8_e4m3x2_t __hip_fp8x2_e4m3;
typedef __hip_fp8_e4m3x4_t __hip_fp8x4_e4m3;
typedef __hip_fp8_e5m2x2_t __hip_fp8x2_e5m2;
typedef __hip_fp8_e5m2x4_t __hip_fp8x4_e5m2;
typedef __hip_fp8_e4m3_fnuzx2_t __hip_fp8x2_e4m3_fnuz;
typedef __hip_fp8_e4m3_fnuzx4_t __hip_fp8x4_e4m3_fnuz;
typedef __hip_fp8_e5m2_fnuzx2_t __hip_fp8x2_e5m2_fnuz;
typedef __hip_fp8_e5m2_fnuzx4_t __hip_fp8x4_e5m2_fnuz;
struct __hip_fp8x4_e8m0_fnuz { __hip_fp8x4_storage_t __x; };

// ---- matrix cores: the AMD MFMA builtins TileLang's HIP code calls, as td_matrix64.h's wave operations --
#include <td_matrix64.h>
// (the three trailing immediates, cbsz/abid/blgp broadcast controls, are always 0 in TileLang's code)
#define __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, ...) __td_mma64_f32_16x16x16_f16(a, b, c)
#define __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, ...) __td_mma64_f32_16x16x16_bf16(a, b, c)
#define __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, ...) __td_mma64_f32_16x16x32_fp8(a, b, c)
#define __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a, b, c, ...) __td_mma64_f32_16x16x32_bf8(a, b, c)
#define __builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, c, ...) __td_mma64_i32_16x16x32_i8(a, b, c)
#define __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, c, ...) __td_mma64_f32_16x16x4_f32(a, b, c)
#define __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, ...) __td_mma64_f32_32x32x8_f16(a, b, c)
#define __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, ...) __td_mma64_f32_32x32x8_bf16(a, b, c)
// gfx950's K = 32 half and bfloat16 forms (T.gemm with k_pack=2 on the stand-in's CDNA4): a lane's 8 A and 8 B
// elements are the operands of two K = 16 operations, its first four and its last four, since A and B number
// K alike within a lane, the products pair as the K = 32 operation pairs them (the order in which the two
// halves add up is tile-doctor's).
struct __td_half_operand { unsigned w[2]; };
template <typename AT, typename BT, typename CT, typename Op>
__device__ inline __td_f32x4 __td_mma64_k32_as_two(AT a, BT b, CT c, Op op) {
  __td_words<4, AT> x(a);
  __td_words<4, BT> y(b);
  __td_half_operand a0 = {{x.w[0], x.w[1]}}, a1 = {{x.w[2], x.w[3]}}, b0 = {{y.w[0], y.w[1]}}, b1 = {{y.w[2], y.w[3]}};
  return op(a1, b1, op(a0, b0, c));
}
#define __builtin_amdgcn_mfma_f32_16x16x32_f16(a, b, c, ...)                                              \
  __td_mma64_k32_as_two(a, b, c, [](auto x, auto y, auto z) { return __td_mma64_f32_16x16x16_f16(x, y, z); })
#define __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c, ...)                                             \
  __td_mma64_k32_as_two(a, b, c, [](auto x, auto y, auto z) { return __td_mma64_f32_16x16x16_bf16(x, y, z); })

// ---- what no wave-64 target has --------------------------------------------------------------------------
// TileLang's HIP codegen writes T.alloc_barrier's arrivals and waits as these calls, which tl_templates/hip
// lacks and no wave-64 target has hardware for (tilelang-metax: T.alloc_barrier fails). Written as the
// PTX they stand for, so that the kernel compiles and the launch family reports target-unsupported
// (mbarrier) at the statement, with the Python line, instead of a compile error in generated code.
namespace tl {
template <typename B> __device__ inline void mbarrier_init(B& bar, int count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"l"(&bar), "r"(count) : "memory");
}
template <typename B> __device__ inline void mbarrier_arrive(B& bar) {
  asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"l"(&bar) : "memory");
}
template <typename B> __device__ inline void mbarrier_wait(B& bar, int phase) {
  asm volatile("mbarrier.try_wait.parity.shared.b64 _, [%0], %1;" ::"l"(&bar), "r"(phase) : "memory");
}
}  // namespace tl
