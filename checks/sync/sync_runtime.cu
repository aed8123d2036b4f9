// Synchronisation, device side: the counts every synchronising operation updates (for the race, init and
// sync families), and family "sync"'s barrier and warp-mask checks and GPU hang-report words.
#include "td_core.cuh"
#include "checks/sync/sync_counts.cuh"

// Hang reports: this thread's word of the wait board, null where the executor sees waiting threads itself.
static __device__ __forceinline__ void td_note_wait(unsigned int word) {
  if (unsigned int* slot = (unsigned int*)__td_region(TD_REGION_WAIT_BOARD)) *(volatile unsigned int*)slot = word;
}

// After (acquire) or before (release) a synchronising operation (TD_SYNC_*), for the race checks' counts.
// Full-block barriers and full-warp __syncwarps are counted per thread after they
// complete (every thread then agrees on the count); anything else bumps the block's other-sync count
// before it releases, so every access it orders sees a different count.
static __device__ __forceinline__ bool td_full_sync(unsigned int kind, unsigned int count) {
  return (kind == TD_SYNC_BLOCK_BARRIER && (count == 0 || count >= blockDim.x * blockDim.y * blockDim.z)) ||
         (kind == TD_SYNC_WARP && (count == 0xffffffffu || __popc(count) >= __td_warp_size()));
}

// Barrier checks (family "sync"). The first threads to wait at the block's full barrier of generation g
// (the barriers it passed so far, plus one) leave their word in slot g, and every waiter compares the word
// there with its own once the barrier is passed - a thread that finds another site there waited at a
// different barrier of the same generation (the GPU's bar.sync and the CPU scheduler let such barriers
// release each other). A thread that exits marks the exit slot with its generation: a thread waiting at that
// generation, before or after, waits for a barrier that completes without it.
static __device__ void td_barrier_report(unsigned int site, unsigned int other_site, unsigned int other_thread) {
  td_report_payload(TD_KIND_BARRIER_DIVERGENCE, site, td_barrier_payload{other_thread, other_site, td_block_linear(), 0});
}

// Is a slot's word one written at generation `gen` (its low TD_WAIT_GEN_BITS)? An empty slot (0) is none's.
static __device__ __forceinline__ bool td_wait_word_of(unsigned long long w, unsigned int gen) {
  return w != 0 && TD_WAIT_WORD_GEN(w) == (gen & ((1u << TD_WAIT_GEN_BITS) - 1));
}

static __device__ __forceinline__ td_block_checks* td_barrier_slots() {
  return (td_block_checks*)__td_region(TD_REGION_BARRIER_SLOTS);
}

extern "C" {

__device__ void __td_sync_passed(unsigned int kind, unsigned int count) {
  if (td_full_sync(kind, count)) ++td_thread_sync()[kind];
  if (kind == TD_SYNC_BLOCK_BARRIER) td_note_wait(0);
}
__device__ void __td_sync_release(unsigned int kind, unsigned int count) {
  if (!td_full_sync(kind, count)) atomicAdd(td_block_sync(), 1u);
}

__device__ void __td_barrier_wait(unsigned int site, unsigned int count) {
  td_note_wait(site + 1);
  if (count != 0) return;  // a barrier with a thread count is a group's (bar.arrive may count towards it)
  unsigned int gen = td_thread_sync()[0] + 1;
  td_block_checks* checks = td_barrier_slots();
  // Taken where it holds an older generation: a plain load and store, no claim to contend for (a warp vote,
  // then its leader's compare-exchange loop and a shuffle of the answer, was most of the reduction's sync
  // time). Threads that find it older together each store a whole word of their own; one of them stays.
  volatile unsigned long long* slot = &checks->waits[gen % TD_BARRIER_SLOTS];
  if (!td_wait_word_of(*slot, gen)) *slot = TD_WAIT_WORD(gen, td_thread_linear(), site);
  unsigned long long exited = td_load(&checks->exited.key);
  if (exited >> 32 == gen) td_barrier_report(site, TD_SITE_EXITED, checks->exited.thread);
}

// After a full barrier, once __td_sync_passed counted it (the sync pass places it so): the generation's first
// waiter, at another site? The slot is this generation's: its first threads wrote it before the barrier
// released, and none can write it again before this thread reaches its next barrier. A barrier with a thread
// count that counted as full wrote nothing: the word of an older generation is left alone.
__device__ void __td_barrier_passed(unsigned int site, unsigned int count) {
  if (count != 0) return;
  unsigned int gen = td_thread_sync()[0];
  unsigned long long w = td_load(&td_barrier_slots()->waits[gen % TD_BARRIER_SLOTS]);
  if (td_wait_word_of(w, gen) && TD_WAIT_WORD_SITE(w) != site)
    td_barrier_report(site, TD_WAIT_WORD_SITE(w), TD_WAIT_WORD_THREAD(w));
}

// A barrier passed without waiting (bar.arrive): in a hang report, the other side of a counted barrier.
__device__ void __td_barrier_arrive(unsigned int site) { td_note_wait(TD_WAIT_ARRIVED | (site + 1)); }

__device__ void __td_thread_exit() {
  if (unsigned int* slot = (unsigned int*)__td_region(TD_REGION_WAIT_BOARD)) *(volatile unsigned int*)slot |= TD_WAIT_EXITED;
  unsigned int gen = td_thread_sync()[0] + 1;
  td_block_checks* checks = td_barrier_slots();
  unsigned int me = td_thread_linear(), ws = __td_warp_size();
  // The lane's bit in its half of the warp's word: a 32-bit or is one instruction, where a 64-bit one was a
  // compare-exchange loop that every lane of a warp exiting together went round (a quarter of the reduction's
  // samples on the H100). Both executors are little-endian.
  if (me / ws < TD_MAX_WARPS)
    __atomic_fetch_or((unsigned int*)&checks->exited_lanes[me / ws] + (me % ws) / 32, 1u << (me % 32), __ATOMIC_RELAXED);
  unsigned long long none = 0;
  if (__atomic_compare_exchange_n(&checks->exited.key, &none, (unsigned long long)gen << 32, false, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED))
    checks->exited.thread = me;
  unsigned long long w = td_load(&checks->waits[gen % TD_BARRIER_SLOTS]);
  if (td_wait_word_of(w, gen)) td_barrier_report(TD_WAIT_WORD_SITE(w), TD_SITE_WAITING, TD_WAIT_WORD_THREAD(w));
}

// A warp collective's mask (__syncwarp, shuffles, votes, redux): the calling lane must be in it, the
// lanes it names must not have exited, and on a 64-lane wave a literal 0xffffffff (`literal_full`)
// names only half the wave: code written for 32-lane warps.
__device__ void __td_warp_mask(unsigned int site, unsigned int mask, unsigned int literal_full) {
  unsigned int ws = __td_warp_size(), me = td_thread_linear(), lane = me % ws;
  if (literal_full && ws == 64) {
    td_report_payload(TD_KIND_WARP_MASK, site, td_mask_payload{TD_MASK_32_ON_WAVE64, mask});
    return;  // the executor widens it to the whole wave, as the kernel meant
  }
  unsigned long long lanes = (ws == 64 && mask == 0xffffffffu) ? ~0ull : (unsigned long long)mask;
  if (!((lanes >> lane) & 1)) {
    td_report_payload(TD_KIND_WARP_MASK, site, td_mask_payload{TD_MASK_MISSES_SELF, mask});
    return;
  }
  if (me / ws < TD_MAX_WARPS && (td_load(&td_barrier_slots()->exited_lanes[me / ws]) & lanes))
    td_report_payload(TD_KIND_WARP_MASK, site, td_mask_payload{TD_MASK_NAMES_EXITED, mask});
}

// A 32-bit shift by a computed amount: on a 64-lane wave an amount of 32-63 is `1u << lane` (or a lane
// mask shifted by the lane) for the wave's upper half, undefined in C and no lane bit in 32 bits.
__device__ void __td_lane_shift(unsigned int site, unsigned int amount) {
  if (amount >= 32 && amount < 64 && __td_warp_size() == 64)
    td_report_payload(TD_KIND_WARP_MASK, site, td_mask_payload{TD_MASK_SHIFT_PAST_32, amount});
}

}  // extern "C"
