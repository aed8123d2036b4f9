// Family "numerics": what its pass (instrument/shadow_pass), device source and decoders share. Plain C.
#ifndef TD_NUMERICS_ABI_H
#define TD_NUMERICS_ABI_H

// The stored types a store site reports drift in (the hooks' `type` argument, the site's `what`).
#define TD_NUM_HALF 0u
#define TD_NUM_BF16 1u
#define TD_NUM_FLOAT 2u
#define TD_NUM_COUNT_SUBNORMALS 0x100u  // or'ed into `type`: count the site's subnormal and flushed stores

// TD_REGION_NUM_SHARED and TD_REGION_NUM_BUFFER: one granule per 2 bytes of a block's shared window and
// of every global buffer: the value an instrumented store left there and its shadow. A load whose memory
// no longer holds `value` (written by code the pass did not see: a copy, the host, an unshadowed store)
// starts a fresh shadow from what it loaded.
typedef struct td_num_granule {
  double value;
  double shadow;
} td_num_granule;
#define TD_NUM_GRANULE_BYTES 2

// Drift levels: level l is a relative error of at least 2^(l - TD_NUM_LEVELS); a site keeps, per level, the
// first loop iteration at which its error reached it (the innermost loop's; 0 outside loops).
#define TD_NUM_LEVELS 24
#define TD_NUM_NOT_IN_LOOP 0xffffffffu  // the iteration argument of a store outside every loop
// Accumulators are checked at every TD_NUM_STRIDE-th step of their loop (0, 8, 16, ...): the first
// iteration a site names is the first checked one past the level.
#define TD_NUM_STRIDE 8

// TD_REGION_NUM_SITES keeps TD_NUM_SLOTS copies of each site's record, a warp using copy (its warp index
// mod TD_NUM_SLOTS): on the GPU every thread of a grid stores through the same few sites, and one record's
// atomics would serialise them all. The host merges the copies.
#define TD_NUM_SLOTS 16

// TD_REGION_NUM_SITES: per store site, the drift of what its stores wrote against their shadows. Maxima of
// non-negative doubles are kept as their bits (which order like the values) so atomicMax keeps them.
typedef struct td_num_site {
  unsigned long long count;      // stores measured
  unsigned long long max_err;    // largest |value - shadow|
  unsigned long long max_mag;    // largest |shadow|
  unsigned long long max_ulps;   // largest |value - shadow| in units in the last place of the stored type
  unsigned long long max_rel;    // largest |value - shadow| / |shadow| where |shadow| is a normal number
  double sum_err, sum_mag;       // sums of |value - shadow| and |shadow|
  double where_value, where_shadow;  // the store of the largest error:
  unsigned long long where_offset;   // byte offset in its buffer or shared window
  unsigned int where_block, where_thread;  // linear ids
  // Per level, ~(the first iteration that reached it) (kept with atomicMax; 0: never reached). Store sites in
  // a loop measure against the largest magnitude the site stored so far; accumulators (the FP phis of loop
  // headers) against the largest magnitude of the thread's accumulator so far.
  unsigned int first_iter[TD_NUM_LEVELS];
  // With TD_NUM_COUNT_SUBNORMALS: stores of a subnormal value, and of a zero whose shadow is a nonzero
  // below the type's smallest normal (flushed, or rounded to zero).
  unsigned int subnormal, flushed;
} td_num_site;

// TD_REGION_NUM_LANES: per thread, its matrix fragments' shadows while the warp computes an mma's shadow
// (__td_num_mma): A's 8 elements, then B's 4.
#define TD_NUM_LANE_DOUBLES 12

// The payload of TD_KIND_FP_OVERFLOW and TD_KIND_FP_INVALID: a non-finite result of finite operands.
typedef struct td_num_payload {
  double a, b;           // the operands (the first two; b = 0 for one-operand operations)
  unsigned int flags;    // TD_NUM_NAN: the result is NaN (else +-inf); TD_NUM_SHADOW_FINITE: the shadow is finite
  unsigned int lane;     // the vector element in bits 0-7, the number of operands (1 or 2) in bits 8-9
} td_num_payload;
#define TD_NUM_NAN 1u
#define TD_NUM_SHADOW_FINITE 2u
#define TD_NUM_NEGATIVE 4u

#endif
