// Family "numerics": what its pass (checks/numerics/shadow_pass), device source and decoders share. Plain C.
#ifndef TD_NUMERICS_ABI_H
#define TD_NUMERICS_ABI_H

// The stored types a store site reports drift in (the hooks' `type` argument, the site's `what`).
#define TD_NUM_HALF 0u
#define TD_NUM_BF16 1u
#define TD_NUM_FLOAT 2u
#define TD_NUM_COUNT_SUBNORMALS 0x100u  // or'ed into `type`: count the site's subnormal and flushed stores
#define TD_NUM_NO_GRANULE 0x200u        // or'ed into `type`: nothing reads this memory's shadows back: keep none

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

// A run of stores through one site in one basic block (an epilogue's), or in a loop nest (a tree reduction's
// steps), measured in the thread's registers and added to the site's record once, at its end
// (__td_num_tally_end): per store, the record's atomics and the warp's shuffles would cost many times the
// arithmetic. The pass keeps it in an alloca of the kernel.
typedef struct td_num_tally {
  double sum_err, sum_mag;
  double max_err, max_mag, max_ulps, max_rel;  // as in td_num_site, as doubles
  double where_value, where_shadow;            // the run's store of the largest error
  unsigned long long where_offset;
  unsigned int count;
  unsigned int reached;  // in a loop: 1 + the highest drift level its stores reached (recorded), 0 none
} td_num_tally;

// TD_REGION_NUM_LANES: per thread, its matrix fragments' shadows while the warp computes an mma's shadow
// (__td_num_mma): A's 8 elements, then B's 4.
#define TD_NUM_LANE_DOUBLES 12

// A block's births of non-finite values, when its one test found one (__td_num_nonfinite): what the cold
// path hands the runtime, at most TD_NUM_BIRTHS at a time (a buffer on the thread's stack: its values need
// not stay live across calls, which would cost the kernel registers). The FP fields are stored in their own
// types (`formats`: the first bytes of the field) and widened by the runtime.
typedef struct td_num_birth {
  unsigned int site;
  unsigned int word;     // the vector element (bits 0-7), the number of operands (bits 8-9), the fields'
                         // formats (TD_NUM_*_FORMAT), and TD_NUM_REDO_*
  double value, shadow;  // the result and its shadow
  double a, b;           // the operands (the first two; b = 0 for one-operand operations)
} td_num_birth;
#define TD_NUM_FIELD_DOUBLE 0u
#define TD_NUM_FIELD_FLOAT 1u
#define TD_NUM_FIELD_HALF 2u
#define TD_NUM_FIELD_BF16 3u
#define TD_NUM_VALUE_FORMAT 16  // shifts of each field's format (2 bits)
#define TD_NUM_SHADOW_FORMAT 18
#define TD_NUM_A_FORMAT 20
#define TD_NUM_B_FORMAT 22
// No shadow given: the runtime works it out in double from the operands (a product absorbed by a sum).
#define TD_NUM_REDO_MUL (1u << 24)
#define TD_NUM_REDO_ADD (2u << 24)
#define TD_NUM_REDO_SUB (3u << 24)
#define TD_NUM_REDO_DIV (4u << 24)
#define TD_NUM_BIRTHS 32

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
