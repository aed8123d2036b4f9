// The libdevice functions (__nv_*) that have no C library twin, for the CPU executor. Functions whose
// name without "__nv_" (and "fast_") is a C math function (expf, sinf, pow, ...) are bound to the host's
// libm by the CPU executor instead. Compiled by tile-doctor's frontend, then retargeted with the kernel.
#define TD_NV extern "C" __device__

TD_NV int __nv_popc(unsigned int x) { return __builtin_popcount(x); }
TD_NV int __nv_popcll(unsigned long long x) { return __builtin_popcountll(x); }
TD_NV int __nv_clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
TD_NV int __nv_clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
TD_NV int __nv_ffs(int x) { return __builtin_ffs(x); }
TD_NV int __nv_ffsll(long long x) { return __builtin_ffsll(x); }
TD_NV unsigned int __nv_brev(unsigned int x) { return __builtin_bitreverse32(x); }
TD_NV unsigned long long __nv_brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
TD_NV int __nv_mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
TD_NV unsigned int __nv_umulhi(unsigned int a, unsigned int b) { return (unsigned int)(((unsigned long long)a * b) >> 32); }
TD_NV long long __nv_mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
TD_NV unsigned long long __nv_umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
TD_NV int __nv_mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
TD_NV unsigned int __nv_umul24(unsigned int a, unsigned int b) { return (a & 0xffffff) * (b & 0xffffff); }
TD_NV int __nv_abs(int x) { return x < 0 ? -x : x; }
TD_NV long long __nv_llabs(long long x) { return x < 0 ? -x : x; }
TD_NV int __nv_min(int a, int b) { return a < b ? a : b; }
TD_NV int __nv_max(int a, int b) { return a > b ? a : b; }
TD_NV unsigned int __nv_umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
TD_NV unsigned int __nv_umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
TD_NV long long __nv_llmin(long long a, long long b) { return a < b ? a : b; }
TD_NV long long __nv_llmax(long long a, long long b) { return a > b ? a : b; }
TD_NV unsigned long long __nv_ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
TD_NV unsigned long long __nv_ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
TD_NV unsigned int __nv_sad(int a, int b, unsigned int c) { return (a > b ? a - b : b - a) + c; }
TD_NV unsigned int __nv_usad(unsigned int a, unsigned int b, unsigned int c) { return (a > b ? a - b : b - a) + c; }
TD_NV unsigned int __nv_byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) r |= (unsigned int)((v >> (((s >> (4 * i)) & 7) * 8)) & 0xff) << (8 * i);
  return r;
}
TD_NV float __nv_saturatef(float x) { return x < 0.f ? 0.f : (x > 1.f ? 1.f : x); }
TD_NV float __nv_rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
TD_NV double __nv_rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
TD_NV float __nv_fast_fdividef(float a, float b) { return a / b; }
TD_NV float __nv_fdividef(float a, float b) { return a / b; }
TD_NV float __nv_frcp_rn(float x) { return 1.0f / x; }
TD_NV float __nv_fsqrt_rn(float x) { return __builtin_sqrtf(x); }
TD_NV float __nv_fdiv_rn(float a, float b) { return a / b; }
TD_NV float __nv_fadd_rn(float a, float b) { return a + b; }
TD_NV float __nv_fsub_rn(float a, float b) { return a - b; }
TD_NV float __nv_fmul_rn(float a, float b) { return a * b; }
TD_NV float __nv_fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
TD_NV double __nv_dadd_rn(double a, double b) { return a + b; }
TD_NV double __nv_dmul_rn(double a, double b) { return a * b; }
TD_NV double __nv_fma_rn(double a, double b, double c) { return __builtin_fma(a, b, c); }
TD_NV int __nv_isnanf(float x) { return x != x; }
TD_NV int __nv_isnand(double x) { return x != x; }
TD_NV int __nv_isinff(float x) { return __builtin_isinf(x); }
TD_NV int __nv_isinfd(double x) { return __builtin_isinf(x); }
TD_NV int __nv_finitef(float x) { return __builtin_isfinite(x); }
TD_NV int __nv_isfinited(double x) { return __builtin_isfinite(x); }
TD_NV int __nv_signbitf(float x) { return __builtin_signbit(x); }
TD_NV int __nv_signbitd(double x) { return __builtin_signbit(x); }
TD_NV int __nv_float_as_int(float x) { return __builtin_bit_cast(int, x); }
TD_NV float __nv_int_as_float(int x) { return __builtin_bit_cast(float, x); }
TD_NV unsigned int __nv_float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
TD_NV float __nv_uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
TD_NV unsigned long long __nv_double_as_longlong(double x) { return __builtin_bit_cast(unsigned long long, x); }
TD_NV double __nv_longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
TD_NV int __nv_float2int_rz(float x) { return (int)x; }
TD_NV int __nv_float2int_rn(float x) { return (int)__builtin_rintf(x); }
TD_NV int __nv_float2int_rd(float x) { return (int)__builtin_floorf(x); }
TD_NV int __nv_float2int_ru(float x) { return (int)__builtin_ceilf(x); }
TD_NV unsigned int __nv_float2uint_rz(float x) { return (unsigned int)x; }
TD_NV unsigned int __nv_float2uint_rn(float x) { return (unsigned int)__builtin_rintf(x); }
TD_NV float __nv_int2float_rn(int x) { return (float)x; }
TD_NV float __nv_uint2float_rn(unsigned int x) { return (float)x; }
TD_NV double __nv_int2double_rn(int x) { return (double)x; }
TD_NV int __nv_double2int_rz(double x) { return (int)x; }
TD_NV int __nv_double2int_rn(double x) { return (int)__builtin_rint(x); }
TD_NV float __nv_double2float_rn(double x) { return (float)x; }
TD_NV long long __nv_float2ll_rz(float x) { return (long long)x; }
TD_NV long long __nv_float2ll_rn(float x) { return (long long)__builtin_rintf(x); }
TD_NV float __nv_ll2float_rn(long long x) { return (float)x; }
TD_NV unsigned short __nv_float2half_rn(float x) { return __builtin_bit_cast(unsigned short, (_Float16)x); }
TD_NV float __nv_half2float(unsigned short h) { return (float)__builtin_bit_cast(_Float16, h); }
TD_NV float __nv_exp10f(float x) { return __builtin_powf(10.0f, x); }
TD_NV double __nv_exp10(double x) { return __builtin_pow(10.0, x); }
TD_NV void __nv_sincosf(float x, float* s, float* c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
TD_NV void __nv_sincos(double x, double* s, double* c) { *s = __builtin_sin(x); *c = __builtin_cos(x); }
TD_NV void __nv_fast_sincosf(float x, float* s, float* c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
TD_NV float __nv_sinpif(float x) { return __builtin_sinf(3.14159265358979f * x); }
TD_NV float __nv_cospif(float x) { return __builtin_cosf(3.14159265358979f * x); }
