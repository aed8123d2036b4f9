// Family "numerics": the device half of the shadow values (checks/numerics/shadow_pass). Loads take back the
// shadow a store left while memory still holds the stored value; stores leave value and shadow and add
// their error to the site's drift; a non-finite result of finite operands is recorded where it is born.
#include "checks/numerics/numerics_abi.h"

static __device__ __forceinline__ unsigned long long td_num_bits(double x) {
  unsigned long long b;
  __builtin_memcpy(&b, &x, 8);
  return b;
}

static __device__ __forceinline__ double td_num_from_bits(unsigned long long b) {
  double x;
  __builtin_memcpy(&x, &b, 8);
  return x;
}

static __device__ __forceinline__ bool td_num_finite(double x) { return (td_num_bits(x) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull; }

// A td_num_birth field as a double, from its format (TD_NUM_FIELD_*, in the low two bits of `format`).
static __device__ __forceinline__ double td_num_field(const double* field, unsigned int format) {
  switch (format & 3u) {
    case TD_NUM_FIELD_FLOAT: {
      float f;
      __builtin_memcpy(&f, field, 4);
      return f;
    }
    case TD_NUM_FIELD_HALF:
    case TD_NUM_FIELD_BF16: {
      unsigned short h;
      __builtin_memcpy(&h, field, 2);
      if ((format & 3u) == TD_NUM_FIELD_BF16) return __uint_as_float((unsigned int)h << 16);
      return __half2float(__ushort_as_half(h));
    }
    default:
      return *field;
  }
}

// Where a granule of memory out of every region lands (its value NaN: no load ever matches it), so the
// hooks take no branch to find a granule.
__device__ td_num_granule __td_num_sink = {__builtin_nan(""), 0.0};

// The granule of memory at `p`: space 0 a global buffer (object = its argument), 1 the block's shared
// window; the sink outside them.
static __device__ __forceinline__ td_num_granule* td_num_granule_at(const void* p, unsigned int space, unsigned int object) {
  if (space == 0) {
    bool known = object < __td_ctl.nbuffers;
    unsigned int arg = known ? object : 0;
    td_num_granule* r = (td_num_granule*)td_buffer_region(TD_REGION_NUM_BUFFER, arg);
    unsigned long long off = (unsigned long long)p - __td_ctl.buffers[arg].base;
    bool in = known && r && off < __td_ctl.buffers[arg].bytes;
    return in ? r + off / TD_NUM_GRANULE_BYTES : &__td_num_sink;
  }
  td_num_granule* r = (td_num_granule*)__td_region(TD_REGION_NUM_SHARED);
  unsigned int off = __td_shared_window_offset(p);
  bool in = r && off < __td_shared_window_bytes();
  return in ? r + off / TD_NUM_GRANULE_BYTES : &__td_num_sink;
}

// The reciprocal of one unit in the last place of `type` at magnitude |x| (subnormals: the smallest normal's),
// a power of two: errors in ulps by a multiplication, not a division.
static __device__ __forceinline__ double td_num_per_ulp(double x, unsigned int type) {
  int e = (int)((td_num_bits(x) >> 52) & 0x7ff) - 1023;
  int emin = type == TD_NUM_HALF ? -14 : -126, mantissa = type == TD_NUM_HALF ? 10 : type == TD_NUM_BF16 ? 7 : 23;
  if (e < emin) e = emin;
  return td_num_from_bits((unsigned long long)(mantissa - e + 1023) << 52);
}

static __device__ __forceinline__ double td_num_smallest_normal(unsigned int type) {
  return td_num_from_bits((unsigned long long)((type == TD_NUM_HALF ? -14 : -126) + 1023) << 52);
}

// x / y for non-negative x and normal y, approximately (the figures need no more digits): in float where float
// holds both as normal numbers; else the mantissas' quotient in float and the exponents' difference. No double
// division: its routine is a call, and a call's registers count for the whole kernel.
static __device__ __forceinline__ double td_num_ratio(double x, double y) {
  bool floatHolds = x < 0x1p126 && y < 0x1p126 && (x == 0 || x >= 0x1p-126);
  if (floatHolds) return (double)__fdividef((float)x, (float)y);
  if (x < 0x1p-1000) return 0.0;  // a relative error below any figure's digits (y is at least 2^-126)
  const unsigned long long mantissa = (1ull << 52) - 1, one = 1023ull << 52;
  unsigned long long bx = td_num_bits(x), by = td_num_bits(y);
  float mx = (float)td_num_from_bits((bx & mantissa) | one), my = (float)td_num_from_bits((by & mantissa) | one);
  int e = (int)(bx >> 52) - (int)(by >> 52);  // non-negative numbers: no sign bits
  e = e < -1022 ? -1022 : e > 1023 ? 1023 : e;
  return (double)__fdividef(mx, my) * td_num_from_bits((unsigned long long)(e + 1023) << 52);
}

// Raises *p, whose value was `seen` a moment ago, to x (a non-negative double, kept as its bits); true when x
// is the new maximum. Comparing with `seen` first spares most atomics (a stale value only costs one).
static __device__ __forceinline__ bool td_num_raise(unsigned long long* p, unsigned long long seen, double x) {
  unsigned long long bits = td_num_bits(x);
  if (bits <= seen) return false;
  return atomicMax(p, bits) < bits;
}

// The same where nothing waits for the answer: the GPU sends the atomic off (red) and goes on.
static __device__ __forceinline__ void td_num_raise_quietly(unsigned long long* p, unsigned long long seen, double x) {
  unsigned long long bits = td_num_bits(x);
  if (bits > seen) atomicMax(p, bits);
}

// The drift level (TD_NUM_LEVELS, -1 below the lowest) of the relative error err / mag (err > 0, mag normal),
// without dividing: floor(log2(err / mag)) is the exponents' difference, less one where err's mantissa is the
// smaller. Exact, and a few integer instructions where the quotient took a warp dozens (a store in a loop
// asks it every time).
static __device__ __forceinline__ int td_num_level_of(double err, double mag) {
  const unsigned long long mantissa = (1ull << 52) - 1;
  unsigned long long a = td_num_bits(err), b = td_num_bits(mag);
  int e = (int)((a >> 52) & 0x7ff) - (int)((b >> 52) & 0x7ff) - ((a & mantissa) < (b & mantissa) ? 1 : 0);
  int l = e + TD_NUM_LEVELS;
  return l < 0 ? -1 : l >= TD_NUM_LEVELS ? TD_NUM_LEVELS - 1 : l;
}

// Records that `site` reached drift `level` at loop iteration `iter` (and so every level below it).
static __device__ __forceinline__ void td_num_reached(td_num_site* s, int level, unsigned int iter) {
  unsigned int mark = ~iter;
  if (level < 0 || s->first_iter[level] >= mark) return;  // reached as early already: the lower levels too
  for (int l = level; l >= 0; --l)
    if (atomicMax(&s->first_iter[l], mark) >= mark) break;
}

// The calling warp's copy of a site's record (TD_NUM_SLOTS).
static __device__ __forceinline__ td_num_site* td_num_slot(td_num_site* sites, unsigned int site) {
  unsigned int warp = td_block_linear() * ((blockDim.x * blockDim.y * blockDim.z + 31) / 32) + td_thread_linear() / 32;
  return &sites[site * TD_NUM_SLOTS + warp % TD_NUM_SLOTS];
}

// Where a store went: its byte offset in its buffer (space 0) or in the block's shared window. Asked for only
// where it is kept (a new worst store, or a warp's shuffle of it).
static __device__ __forceinline__ unsigned long long td_num_offset(const void* p, unsigned int space, unsigned int object) {
  return space == 0 ? (unsigned long long)p - __td_ctl.buffers[object].base
                    : (unsigned long long)__td_shared_window_offset(p);
}

// Warp-wide maximum of non-negative floats, by their bits (which order as the values do): one redux.sync
// where the GPU has it.
static __device__ __forceinline__ float td_num_warp_max(float x) {
  unsigned int bits = __float_as_uint(x);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  bits = __reduce_max_sync(0xffffffffu, bits);
#else
  for (unsigned int d = 16; d > 0; d >>= 1) {
    unsigned int other = __shfl_xor_sync(0xffffffffu, bits, d);
    bits = other > bits ? other : bits;
  }
#endif
  return __uint_as_float(bits);
}

static __device__ __forceinline__ float td_num_warp_sum(float x) {
  for (unsigned int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
  return x;
}

// Adds a tally (one thread's, or a warp's combined) to a site's record; where its worst store is the
// worst so far, says where (racy between equal errors), `thread` being the thread that made it.
static __device__ __forceinline__ void td_num_add_to_site(td_num_site* s, const td_num_tally* t, unsigned int thread) {
  // The record's maxima read first, together: the warp waits once for the four loads, not once per load
  // between atomics (the reduction's flushes before its barriers stalled every warp behind them).
  unsigned long long seenErr = s->max_err, seenMag = s->max_mag, seenUlps = s->max_ulps, seenRel = s->max_rel;
  atomicAdd(&s->count, (unsigned long long)t->count);
  atomicAdd(&s->sum_err, t->sum_err);
  atomicAdd(&s->sum_mag, t->sum_mag);
  td_num_raise_quietly(&s->max_mag, seenMag, t->max_mag);
  td_num_raise_quietly(&s->max_ulps, seenUlps, t->max_ulps);
  if (t->max_rel > 0) td_num_raise_quietly(&s->max_rel, seenRel, t->max_rel);
  if (td_num_raise(&s->max_err, seenErr, t->max_err)) {
    s->where_value = t->where_value;
    s->where_shadow = t->where_shadow;
    s->where_offset = t->where_offset;
    s->where_block = td_block_linear();
    s->where_thread = thread;
  }
}

// On the GPU, a whole warp ending a run of stores through one site at once (an epilogue) adds to the site's
// record once: its lanes' tallies combined (in float: a record's figures need no more digits, and a warp
// reduces them in a few instructions), the atomics left to lane 0. False (nothing done) when the warp is not
// whole there, its lanes are at different sites, or a figure is too large for float's range.
static __device__ __forceinline__ bool td_num_tally_as_warp(td_num_site* s, unsigned int site, const td_num_tally* t) {
  const unsigned int full = 0xffffffffu;
  const double roomy = 0x1p120;  // 32 of them still sum below float's largest
  bool fits = t->sum_err < roomy && t->sum_mag < roomy && t->max_ulps < roomy && t->max_rel < roomy;
  if (__activemask() != full) return false;
  if (!__any_sync(full, t->count != 0)) return true;  // no lane stored here (a tree's idle warps, one thread's store)
  if (!__all_sync(full, fits && __shfl_sync(full, site, 0) == site)) return false;
  float errF = (float)t->max_err, maxErr = td_num_warp_max(errF);
  float sumErr = td_num_warp_sum((float)t->sum_err), sumMag = td_num_warp_sum((float)t->sum_mag);
  float maxMag = td_num_warp_max((float)t->max_mag), maxUlps = td_num_warp_max((float)t->max_ulps);
  float maxRel = td_num_warp_max((float)t->max_rel);
  unsigned int count = t->count;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  count = __reduce_add_sync(full, count);
#else
  for (unsigned int d = 16; d > 0; d >>= 1) count += __shfl_xor_sync(full, count, d);
#endif
  unsigned int worst = __ffs(__ballot_sync(full, t->count != 0 && errF == maxErr)) - 1;
  double worstValue = __shfl_sync(full, t->where_value, worst), worstShadow = __shfl_sync(full, t->where_shadow, worst);
  unsigned long long worstOffset = __shfl_sync(full, t->where_offset, worst);
  if (td_thread_linear() % 32 != 0 || count == 0) return true;
  td_num_tally warp;
  warp.count = count;
  warp.sum_err = sumErr, warp.sum_mag = sumMag;
  warp.max_err = maxErr, warp.max_mag = maxMag, warp.max_ulps = maxUlps, warp.max_rel = maxRel;
  warp.where_value = worstValue, warp.where_shadow = worstShadow, warp.where_offset = worstOffset;
  td_num_add_to_site(s, &warp, td_thread_linear() + worst);  // lane 0's id + the worst lane
  return true;
}

extern "C" {

__device__ TD_INLINE_ON_CPU double __td_num_load(const void* p, unsigned int space, unsigned int object, double value) {
  td_num_granule* g = td_num_granule_at(p, space, object);
  double stored = g->value, shadow = g->shadow;
  return stored == value ? shadow : value;  // else written by code without shadows, or never: fresh
}

// One store of a run (td_num_tally): leaves value and shadow in memory where something reads them back, and
// adds its error to the run's tally.
__device__ __attribute__((always_inline)) TD_INLINE_ON_CPU void __td_num_tally_store(
    td_num_tally* t, unsigned int site, void* p, unsigned int space, unsigned int object, double value, double shadow,
    unsigned int type, unsigned int iter) {
  if (!(type & TD_NUM_NO_GRANULE)) {
    td_num_granule* g = td_num_granule_at(p, space, object);
    g->value = g == &__td_num_sink ? __builtin_nan("") : value;
    g->shadow = shadow;
  }
  // Non-finite values are fp-overflow's business: measured as nothing (no branch: a warp's stores go on together).
  bool measured = td_num_finite(value) && td_num_finite(shadow);
  bool countSubnormals = type & TD_NUM_COUNT_SUBNORMALS;
  type &= ~(TD_NUM_COUNT_SUBNORMALS | TD_NUM_NO_GRANULE);
  if (countSubnormals && measured) {  // on request only: straight to the site's record
    td_num_site* sites = (td_num_site*)__td_region(TD_REGION_NUM_SITES);
    double normal = td_num_smallest_normal(type);
    if (sites && value != 0 && __builtin_fabs(value) < normal) atomicAdd(&td_num_slot(sites, site)->subnormal, 1u);
    if (sites && value == 0 && shadow != 0 && __builtin_fabs(shadow) < normal) atomicAdd(&td_num_slot(sites, site)->flushed, 1u);
  }
  double err = measured ? __builtin_fabs(value - shadow) : 0.0, mag = measured ? __builtin_fabs(shadow) : 0.0;
  double ulps = err * td_num_per_ulp(shadow, type), rel = 0.0;
  if (mag >= td_num_smallest_normal(type)) rel = td_num_ratio(err, mag);
  bool worst = measured && (t->count == 0 || err > t->max_err);
  t->count += measured ? 1u : 0u;
  t->sum_err += err;
  t->sum_mag += mag;
  t->max_mag = mag > t->max_mag ? mag : t->max_mag;
  t->max_ulps = ulps > t->max_ulps ? ulps : t->max_ulps;
  t->max_rel = rel > t->max_rel ? rel : t->max_rel;
  t->max_err = worst ? err : t->max_err;
  t->where_value = worst ? value : t->where_value;
  t->where_shadow = worst ? shadow : t->where_shadow;
  t->where_offset = worst ? td_num_offset(p, space, object) : t->where_offset;
  // In a loop: the drift level this store reached against the largest magnitude the run stored so far, the
  // site's record told when it is a new one for the run (its first iteration there is the host's question).
  if (iter != TD_NUM_NOT_IN_LOOP && err > 0 && t->max_mag >= td_num_smallest_normal(type)) {
    int level = td_num_level_of(err, t->max_mag);
    if (level >= 0 && (unsigned int)level + 1 > t->reached) {
      td_num_site* sites = (td_num_site*)__td_region(TD_REGION_NUM_SITES);
      if (sites) td_num_reached(td_num_slot(sites, site), level, iter);
      t->reached = (unsigned int)level + 1;
    }
  }
}

// The end of a run: its tally added to the site's record.
__device__ TD_INLINE_ON_CPU void __td_num_tally_end(unsigned int site, const td_num_tally* t) {
  td_num_site* sites = (td_num_site*)__td_region(TD_REGION_NUM_SITES);
  if (!sites) return;
  td_num_site* s = td_num_slot(sites, site);
  if (__td_ctl.lanes_concurrent && td_num_tally_as_warp(s, site, t)) return;
  if (t->count != 0) td_num_add_to_site(s, t, td_thread_linear());
}

// The shadow of mma.sync m16n8k{8,16} on 16-bit inputs (PTX ISA fragment layouts, as runtime/cpu/
// ptx_semantics.cpp): every lane leaves its A and B fragments' shadows in its TD_REGION_NUM_LANES slot, the
// warp meets, and each lane sums its four D elements' products in double from the slots of the lanes that
// hold their row of A and column of B; a second meeting keeps the slots until every lane has read them.
// Slot 2r + h holds register r's half h (g = lane / 4, t = lane % 4): A's at (g + 8(r % 2), 2t + 8(r / 2) + h),
// B's at (2t + 8r + h, g); D's four elements e at (g + 8(e / 2), 2t + e % 2), C's alike.
__device__ void __td_num_mma(unsigned int k, const double* a, const double* b, const double* c, double* d) {
  double* mine = (double*)__td_region(TD_REGION_NUM_LANES);
  if (!mine) {
    for (int e = 0; e < 4; ++e) d[e] = c[e];
    return;
  }
  unsigned int lane = td_thread_linear() % 32;
  for (unsigned int e = 0; e < k / 2; ++e) mine[e] = a[e];
  for (unsigned int e = 0; e < k / 4; ++e) mine[8 + e] = b[e];
  __syncwarp();
  double* warp = mine - (long long)lane * TD_NUM_LANE_DOUBLES;
  unsigned int g = lane / 4, t = lane % 4;
  for (unsigned int e = 0; e < 4; ++e) {
    unsigned int row = g + 8 * (e / 2), col = 2 * t + e % 2;
    double acc = c[e];
    for (unsigned int kk = 0; kk < k; ++kk) {
      const double* aLane = warp + ((row % 8) * 4 + (kk % 8) / 2) * TD_NUM_LANE_DOUBLES;
      const double* bLane = warp + (col * 4 + (kk % 8) / 2) * TD_NUM_LANE_DOUBLES;
      unsigned int ar = row / 8 + 2 * (kk / 8), br = kk / 8;
      acc += aLane[2 * ar + kk % 2] * bLane[8 + 2 * br + kk % 2];
    }
    d[e] = acc;
  }
  __syncwarp();
}

// An accumulator reached its type's threshold level (the pass checks every TD_NUM_STRIDE-th step inline and
// calls only then, once).
__device__ __attribute__((noinline, cold)) void __td_num_accumulator(unsigned int site, unsigned int iter, int level) {
  td_num_site* sites = (td_num_site*)__td_region(TD_REGION_NUM_SITES);
  if (sites) td_num_reached(td_num_slot(sites, site), level, iter);
}

// A block's non-finite results: each recorded when its operands were finite (born there, not passed on).
__device__ __attribute__((noinline, cold)) void __td_num_nonfinite(const td_num_birth* births, unsigned int n) {
  for (unsigned int k = 0; k < n; ++k) {
    const td_num_birth& x = births[k];
    double value = td_num_field(&x.value, x.word >> TD_NUM_VALUE_FORMAT), a = td_num_field(&x.a, x.word >> TD_NUM_A_FORMAT);
    double b = td_num_field(&x.b, x.word >> TD_NUM_B_FORMAT), shadow = td_num_field(&x.shadow, x.word >> TD_NUM_SHADOW_FORMAT);
    // Only whether the shadow is finite is asked of it. A quotient's, of finite operands, is where b is not zero
    // and |a| <= |b| * DBL_MAX: no division, whose routine's registers (a call in this call) every caller of this
    // cold function would reserve (the block reduction's count was set here).
    bool quotientFinite = b != 0 && __builtin_fabs(a) <= __builtin_fabs(b) * 0x1.fffffffffffffp1023;
    switch (x.word & (7u << 24)) {
      case TD_NUM_REDO_MUL: shadow = a * b; break;
      case TD_NUM_REDO_ADD: shadow = a + b; break;
      case TD_NUM_REDO_SUB: shadow = a - b; break;
      case TD_NUM_REDO_DIV: shadow = quotientFinite ? 0.0 : __builtin_inf(); break;
      default: break;
    }
    if (td_num_finite(value) || !td_num_finite(a) || !td_num_finite(b)) continue;
    td_num_payload p;
    p.a = a;
    p.b = b;
    p.lane = x.word & 0x3ffu;  // the element, and the operand count << 8
    bool nan = value != value;
    p.flags = (nan ? TD_NUM_NAN : 0u) | (td_num_finite(shadow) ? TD_NUM_SHADOW_FINITE : 0u) | (value < 0 ? TD_NUM_NEGATIVE : 0u);
    td_report_payload(nan ? TD_KIND_FP_INVALID : TD_KIND_FP_OVERFLOW, x.site, p, false, true);  // no call in this call
  }
}

}  // extern "C"
