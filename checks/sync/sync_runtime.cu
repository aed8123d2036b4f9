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

// Barrier checks (family "sync"). Every thread that waits at the block's full barrier of generation g
// (the barriers it passed so far) claims slot g with its site; a thread finding another site there waits
// at a different barrier of the same generation. A thread that exits marks the exit slot with its
// generation: a thread waiting at that generation, before or after, waits for a barrier that completes
// without it.
static __device__ void td_barrier_report(unsigned int site, unsigned int other_site, unsigned int other_thread) {
  td_report_payload(TD_KIND_BARRIER_DIVERGENCE, site, td_barrier_payload{other_thread, other_site, td_block_linear(), 0});
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
  unsigned long long gen = (unsigned long long)td_thread_sync()[0] + 1;
  td_barrier_slot* slots = td_barrier_slots()->slots;
  td_barrier_slot& s = slots[gen % TD_BARRIER_SLOTS];
  unsigned long long mine = (gen << 32) | (site + 1), v = 0;
  // The lanes of a warp here together (same generation, same site) claim the slot once, through their first
  // lane: an exchange each lane made stood in line behind the others' (a sixth of the reduction's samples
  // under sync on the H100). Lanes at another site or generation are another group, and claim for it.
  unsigned long long group = __td_lanes_alike(mine);
  unsigned int leader = (unsigned int)__builtin_ctzll(group);
  if (td_thread_linear() % __td_warp_size() == leader) {
    v = td_load(&s.key);
    while ((v >> 32) != gen) {
      if (__atomic_compare_exchange_n(&s.key, &v, mine, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        s.thread = td_thread_linear();
        v = mine;
      }
    }
  }
  v = __td_lane_broadcast(v, leader, group);
  if ((v & 0xffffffffu) != site + 1) td_barrier_report(site, (unsigned int)(v & 0xffffffffu) - 1, s.thread);
  unsigned long long exited = td_load(&slots[TD_BARRIER_SLOTS].key);
  if (exited >> 32 == gen) td_barrier_report(site, TD_SITE_EXITED, slots[TD_BARRIER_SLOTS].thread);
}

// A barrier passed without waiting (bar.arrive): in a hang report, the other side of a counted barrier.
__device__ void __td_barrier_arrive(unsigned int site) { td_note_wait(TD_WAIT_ARRIVED | (site + 1)); }

__device__ void __td_thread_exit() {
  if (unsigned int* slot = (unsigned int*)__td_region(TD_REGION_WAIT_BOARD)) *(volatile unsigned int*)slot |= TD_WAIT_EXITED;
  unsigned long long gen = (unsigned long long)td_thread_sync()[0] + 1;
  td_block_checks* checks = td_barrier_slots();
  unsigned int me = td_thread_linear(), ws = __td_warp_size();
  // The lane's bit in its half of the warp's word: a 32-bit or is one instruction, where a 64-bit one was a
  // compare-exchange loop that every lane of a warp exiting together went round (a quarter of the reduction's
  // samples on the H100). Both executors are little-endian.
  if (me / ws < TD_MAX_WARPS)
    __atomic_fetch_or((unsigned int*)&checks->exited_lanes[me / ws] + (me % ws) / 32, 1u << (me % 32), __ATOMIC_RELAXED);
  td_barrier_slot* slots = checks->slots;
  td_barrier_slot& e = slots[TD_BARRIER_SLOTS];
  unsigned long long none = 0;
  if (__atomic_compare_exchange_n(&e.key, &none, gen << 32, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    e.thread = td_thread_linear();
  unsigned long long v = td_load(&slots[gen % TD_BARRIER_SLOTS].key);
  if (v >> 32 == gen) td_barrier_report((unsigned int)(v & 0xffffffffu) - 1, TD_SITE_WAITING, slots[gen % TD_BARRIER_SLOTS].thread);
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
