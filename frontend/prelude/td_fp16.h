// Half and bfloat16 types for kernels compiled without the SDK's cuda_fp16.h / cuda_bf16.h.
// __half wraps _Float16 and __nv_bfloat16 wraps __bf16; arithmetic on bfloat16 goes through float,
// as the hardware does for most bf16 operations.
#pragma once

#define TD_HD static __device__ __host__ __forceinline__

struct __half {
  _Float16 __x;
  __half() = default;
  __device__ __host__ constexpr __half(_Float16 v) : __x(v) {}
  __device__ __host__ __half(float v) : __x((_Float16)v) {}
  __device__ __host__ __half(double v) : __x((_Float16)v) {}
  __device__ __host__ __half(int v) : __x((_Float16)v) {}
  __device__ __host__ __half(unsigned int v) : __x((_Float16)v) {}
  __device__ __host__ __half(long long v) : __x((_Float16)v) {}
  __device__ __host__ operator float() const { return (float)__x; }
  __device__ __host__ __half& operator+=(__half o) { __x += o.__x; return *this; }
  __device__ __host__ __half& operator-=(__half o) { __x -= o.__x; return *this; }
  __device__ __host__ __half& operator*=(__half o) { __x *= o.__x; return *this; }
  __device__ __host__ __half& operator/=(__half o) { __x /= o.__x; return *this; }
};
TD_HD __half operator+(__half a, __half b) { return __half(a.__x + b.__x); }
TD_HD __half operator-(__half a, __half b) { return __half(a.__x - b.__x); }
TD_HD __half operator*(__half a, __half b) { return __half(a.__x * b.__x); }
TD_HD __half operator/(__half a, __half b) { return __half(a.__x / b.__x); }
TD_HD __half operator-(__half a) { return __half(-a.__x); }
TD_HD bool operator==(__half a, __half b) { return a.__x == b.__x; }
TD_HD bool operator!=(__half a, __half b) { return a.__x != b.__x; }
TD_HD bool operator<(__half a, __half b) { return a.__x < b.__x; }
TD_HD bool operator>(__half a, __half b) { return a.__x > b.__x; }
TD_HD bool operator<=(__half a, __half b) { return a.__x <= b.__x; }
TD_HD bool operator>=(__half a, __half b) { return a.__x >= b.__x; }

struct __half2 {
  __half x, y;
};
typedef __half half;
typedef __half half_t;
typedef __half2 half2;
typedef unsigned short __half_raw_bits;

TD_HD __half __float2half(float f) { return __half(f); }
TD_HD __half __float2half_rn(float f) { return __half(f); }
TD_HD __half __double2half(double d) { return __half(d); }
TD_HD __half __int2half_rn(int i) { return __half(i); }
TD_HD float __half2float(__half h) { return (float)h.__x; }
TD_HD int __half2int_rn(__half h) { return (int)__builtin_rintf((float)h.__x); }
TD_HD int __half2int_rz(__half h) { return (int)(float)h.__x; }
TD_HD __half __ushort_as_half(unsigned short u) { __half h; __builtin_memcpy(&h, &u, 2); return h; }
TD_HD unsigned short __half_as_ushort(__half h) { unsigned short u; __builtin_memcpy(&u, &h, 2); return u; }
TD_HD __half __hadd(__half a, __half b) { return a + b; }
TD_HD __half __hsub(__half a, __half b) { return a - b; }
TD_HD __half __hmul(__half a, __half b) { return a * b; }
TD_HD __half __hdiv(__half a, __half b) { return a / b; }
TD_HD __half __hneg(__half a) { return -a; }
TD_HD __half __habs(__half a) { return __half(a.__x < 0 ? -a.__x : a.__x); }
TD_HD __half __hfma(__half a, __half b, __half c) { return __half((_Float16)__builtin_fmaf((float)a.__x, (float)b.__x, (float)c.__x)); }
TD_HD __half __hmax(__half a, __half b) { return a.__x > b.__x ? a : b; }
TD_HD __half __hmin(__half a, __half b) { return a.__x < b.__x ? a : b; }
TD_HD bool __heq(__half a, __half b) { return a == b; }
TD_HD bool __hne(__half a, __half b) { return a != b; }
TD_HD bool __hlt(__half a, __half b) { return a < b; }
TD_HD bool __hgt(__half a, __half b) { return a > b; }
TD_HD bool __hle(__half a, __half b) { return a <= b; }
TD_HD bool __hge(__half a, __half b) { return a >= b; }
TD_HD bool __hisnan(__half a) { return a.__x != a.__x; }
TD_HD bool __hisinf(__half a) { return __builtin_isinf((float)a.__x); }
static __device__ __forceinline__ __half hexp(__half a) { return __half(__nv_expf((float)a)); }
static __device__ __forceinline__ __half hlog(__half a) { return __half(__nv_logf((float)a)); }
static __device__ __forceinline__ __half hsqrt(__half a) { return __half(__nv_sqrtf((float)a)); }
static __device__ __forceinline__ __half hrsqrt(__half a) { return __half(__nv_rsqrtf((float)a)); }

TD_HD __half2 __halves2half2(__half a, __half b) { return {a, b}; }
TD_HD __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
TD_HD __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
TD_HD __half2 __half2half2(__half a) { return {a, a}; }
TD_HD float2 __half22float2(__half2 h) { return {(float)h.x, (float)h.y}; }
TD_HD float __low2float(__half2 h) { return (float)h.x; }
TD_HD float __high2float(__half2 h) { return (float)h.y; }
TD_HD __half __low2half(__half2 h) { return h.x; }
TD_HD __half __high2half(__half2 h) { return h.y; }
TD_HD __half2 __hadd2(__half2 a, __half2 b) { return {a.x + b.x, a.y + b.y}; }
TD_HD __half2 __hsub2(__half2 a, __half2 b) { return {a.x - b.x, a.y - b.y}; }
TD_HD __half2 __hmul2(__half2 a, __half2 b) { return {a.x * b.x, a.y * b.y}; }
TD_HD __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
TD_HD __half2 __hmax2(__half2 a, __half2 b) { return {__hmax(a.x, b.x), __hmax(a.y, b.y)}; }
TD_HD __half2 __hmin2(__half2 a, __half2 b) { return {__hmin(a.x, b.x), __hmin(a.y, b.y)}; }
TD_HD __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
TD_HD __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }

struct __nv_bfloat16 {
  __bf16 __x;
  __nv_bfloat16() = default;
  __device__ __host__ __nv_bfloat16(float v) : __x((__bf16)v) {}
  __device__ __host__ __nv_bfloat16(double v) : __x((__bf16)(float)v) {}
  __device__ __host__ __nv_bfloat16(int v) : __x((__bf16)(float)v) {}
  __device__ __host__ operator float() const { return (float)__x; }
  __device__ __host__ __nv_bfloat16& operator+=(__nv_bfloat16 o) { *this = __nv_bfloat16((float)*this + (float)o); return *this; }
  __device__ __host__ __nv_bfloat16& operator-=(__nv_bfloat16 o) { *this = __nv_bfloat16((float)*this - (float)o); return *this; }
  __device__ __host__ __nv_bfloat16& operator*=(__nv_bfloat16 o) { *this = __nv_bfloat16((float)*this * (float)o); return *this; }
};
typedef __nv_bfloat16 bfloat16_t;
typedef __nv_bfloat16 nv_bfloat16;
struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
};
TD_HD __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a + (float)b); }
TD_HD __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a - (float)b); }
TD_HD __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a * (float)b); }
TD_HD __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16((float)a / (float)b); }
TD_HD __nv_bfloat16 operator-(__nv_bfloat16 a) { return __nv_bfloat16(-(float)a); }
TD_HD bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a < (float)b; }
TD_HD bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a > (float)b; }
TD_HD __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
TD_HD __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
TD_HD float __bfloat162float(__nv_bfloat16 b) { return (float)b; }
TD_HD __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return a + b; }
TD_HD __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return a * b; }
TD_HD __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return __nv_bfloat16(__builtin_fmaf((float)a, (float)b, (float)c)); }
TD_HD __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__nv_bfloat16(a), __nv_bfloat16(b)}; }
TD_HD float2 __bfloat1622float2(__nv_bfloat162 h) { return {(float)h.x, (float)h.y}; }

#undef TD_HD
