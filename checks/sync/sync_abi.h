// Family "sync": what its device source and its decoders share. Plain C (the device runtime includes it).
#ifndef TD_SYNC_ABI_H
#define TD_SYNC_ABI_H

// What a synchronising operation is, for the counts of __td_sync_passed / __td_sync_release (the race,
// init and sync families): a block barrier of `count` threads (0: all), __syncwarp(mask), or anything else
// that orders memory between threads (mbarrier arrivals and waits, bar.arrive).
#define TD_SYNC_BLOCK_BARRIER 0
#define TD_SYNC_WARP 1
#define TD_SYNC_OTHER 2

// The payload of TD_KIND_WARP_MASK records: what is wrong, and the mask.
#define TD_MASK_MISSES_SELF 1     // the calling lane is not in its own mask
#define TD_MASK_NAMES_EXITED 2    // the mask names lanes that have exited
#define TD_MASK_32_ON_WAVE64 3    // a literal 0xffffffff on a 64-lane wave: half the wave
#define TD_MASK_SHIFT_PAST_32 4   // a 32-bit shift by 32-63 on a 64-lane wave (`1u << lane`); mask = the amount
typedef struct td_mask_payload {
  unsigned int problem;  // TD_MASK_*
  unsigned int mask;
} td_mask_payload;

// The payload of TD_KIND_BARRIER_DIVERGENCE records: the other thread (linear id in the same block) and
// its site, which may be TD_SITE_EXITED (the other thread exited while this one waited) or
// TD_SITE_WAITING (this thread exited while the other waited there).
#define TD_SITE_EXITED 0xffffffffu
#define TD_SITE_WAITING 0xfffffffeu
typedef struct td_barrier_payload {
  unsigned int partner_thread, partner_site;
  unsigned int block;  // the block's linear id
  unsigned int pad;
} td_barrier_payload;

// TD_REGION_BARRIER_SLOTS: per block, TD_BARRIER_SLOTS generations of its full-block barrier: the word of
// a first thread to wait there (TD_WAIT_WORD: its generation's low bits, its thread, its site + 1), read back
// by every waiter once the barrier is passed; then one slot for the first thread that exited (key =
// generation << 32, and the thread); and per warp the lanes that exited.
#define TD_BARRIER_SLOTS 8
#define TD_MAX_WARPS 32
#define TD_WAIT_GEN_BITS 20
#define TD_WAIT_WORD(gen, thread, site)                                                           \
  ((((unsigned long long)(gen) & ((1ull << TD_WAIT_GEN_BITS) - 1)) << 44) |                       \
   (((unsigned long long)(thread) & 0xfffull) << 32) | (unsigned long long)((site) + 1))
#define TD_WAIT_WORD_GEN(w) ((unsigned int)((w) >> 44))
#define TD_WAIT_WORD_THREAD(w) ((unsigned int)((w) >> 32) & 0xfffu)
#define TD_WAIT_WORD_SITE(w) ((unsigned int)(w) - 1)
typedef struct td_barrier_slot {
  unsigned long long key;
  unsigned int thread, pad;
} td_barrier_slot;
typedef struct td_block_checks {
  unsigned long long waits[TD_BARRIER_SLOTS];
  td_barrier_slot exited;
  unsigned long long exited_lanes[TD_MAX_WARPS];
} td_block_checks;

// TD_REGION_THREAD_SYNC: per thread, [0] full-block barriers passed, [1] full-warp __syncwarps passed
// (8-byte aligned: read as one word). TD_REGION_BLOCK_SYNC: per block, its count of other synchronisation.
#define TD_THREAD_SYNC_BYTES 8
#define TD_BLOCK_SYNC_BYTES 4

// TD_REGION_WAIT_BOARD (GPU hang reports): one word per thread saying where it is at the barriers.
// 0: running (or not started); site + 1: waiting at that barrier; TD_WAIT_ARRIVED | site + 1: last passed
// a barrier there without waiting (bar.arrive); TD_WAIT_EXITED set: returned.
#define TD_WAIT_ARRIVED 0x40000000u
#define TD_WAIT_EXITED 0x80000000u

#endif
