// Families "race" and "init", device side: a shadow per 4 bytes of shared memory and of every buffer
// (last writer, last reader, the synchronisation counts they saw), updated before every access the
// race pass hooks; read-after-write, write-after-read and write-after-write between threads nothing
// orders, and reads of bytes no thread wrote in this launch, become records.
#include "td_core.cuh"
#include "checks/race/race_abi.h"
#include "checks/sync/sync_counts.cuh"

// Who is accessing: the tag without bytes, the aux word, the warp size.
struct td_accessor {
  unsigned long long tag;
  unsigned int aux, thread, ws;
};

static __device__ __forceinline__ td_accessor td_me() {
  td_accessor a;
  a.thread = td_thread_linear();
  // Both counters in one 8-byte load (executors keep them 8-byte aligned): [0] low, [1] high. may_alias:
  // they are counted as ints, and this load must not move past a count.
  typedef unsigned long long __attribute__((may_alias, aligned(8))) td_counter_pair;
  unsigned long long ep = *(const td_counter_pair*)td_thread_sync();
  a.aux = ((unsigned int)(ep >> 32) & 0xffffu) | (*(volatile unsigned int*)td_block_sync() << 16);
  a.tag = (unsigned long long)(a.thread + 1) | ((unsigned long long)(td_block_linear() & 0xfffu) << TD_TAG_BLOCK_SHIFT) |
          ((ep & 0xffffffffull) << TD_TAG_EPOCH_SHIFT);
  a.ws = __td_warp_size();
  return a;
}

// Is the access stored as (tag, aux) ordered before the one `me` makes now? Another block: never
// (global memory; no barrier spans blocks). The same thread: program order. A full-block barrier
// passed since (the barrier counts differ), any other synchronisation in the block since, or - for the
// same warp - a __syncwarp since: yes. Counts that differ only ever order, so a race is missed, never
// invented, where synchronisation is subtler than these counts.
static __device__ __forceinline__ bool td_ordered(unsigned long long tag, unsigned int aux, const td_accessor& me) {
  if ((tag ^ me.tag) & TD_TAG_BLOCK_MASK) return false;
  unsigned int other = TD_TAG_THREAD(tag);
  if (other == me.thread + 1 || ((tag ^ me.tag) >> TD_TAG_EPOCH_SHIFT) || ((aux ^ me.aux) >> 16)) return true;
  return (other - 1) / me.ws == me.thread / me.ws && ((aux ^ me.aux) & 0xffffu);
}

// A conflict with the stored access: it exists, overlaps these bytes, is not atomic against atomic, and
// nothing orders it before this one.
static __device__ __forceinline__ bool td_conflicts(unsigned long long tag, unsigned int aux, unsigned int bytes,
                                                    bool atomic, const td_accessor& me) {
  return TD_TAG_THREAD(tag) && (TD_TAG_BYTES(tag) & bytes) && !(atomic && (tag & TD_TAG_ATOMIC)) &&
         !td_ordered(tag, aux, me);
}

static __device__ __forceinline__ void td_race_report(unsigned int kind, unsigned int site, long long off,
                                                      unsigned long long tag) {
  unsigned int partner_site = TD_TAG_SITE(tag) == 0xffffu ? ~0u : TD_TAG_SITE(tag);
  td_report_payload(kind, site, td_race_payload{off, TD_TAG_THREAD(tag) - 1, partner_site,
                                                (unsigned int)((tag & TD_TAG_BLOCK_MASK) >> TD_TAG_BLOCK_SHIFT), 0});
}

// Shadow kinds: the record kinds of one memory space (shared or global), in RAW, WAR, WAW, uninit order
// as in abi.h, and the word exchange that space's shadow needs.
struct td_space {
  unsigned int raw, uninit;
  bool concurrent;  // blocks share this shadow: exchange atomically
};

static __device__ __forceinline__ unsigned long long td_swap(const td_space& sp, unsigned long long* p,
                                                             unsigned long long v) {
  return sp.concurrent ? __atomic_exchange_n(p, v, __ATOMIC_RELAXED) : __td_block_local_swap(p, v);
}

typedef unsigned long long td_u64x2 __attribute__((ext_vector_type(2)));
typedef unsigned int td_u32x4 __attribute__((ext_vector_type(4)));

// One 4-byte granule of an access: `bytes` the granule's bytes it touches, `off` the reported offset.
static __device__ __forceinline__ void td_race_granule(td_granule& s, unsigned int bytes, long long off, unsigned int site,
                                                       unsigned int kind, const td_accessor& me, const td_space& sp) {
  bool atomic = (kind & TD_ACCESS_MASK) == TD_ACCESS_ATOMIC, write = (kind & TD_ACCESS_MASK) != TD_ACCESS_READ;
  bool race = kind & TD_CHECK_RACE, init = kind & TD_CHECK_INIT;
  unsigned long long mine = me.tag | ((unsigned long long)bytes << 11) | (atomic ? TD_TAG_ATOMIC : 0ull) |
                            ((unsigned long long)(site < 0xffffu ? site : 0xffffu) << 16);
  // Findings are reported after the shadow is up to date: the reports are calls the compiler cannot see
  // through, so checking first and reporting last lets it issue the shadow loads together and keep the
  // common path free of branches.
  if (!write && !race) {  // the init check needs only the written bytes
    if (init && (*(volatile unsigned int*)&s.written & bytes) != bytes) td_report_payload(sp.uninit, site, td_race_payload{off, 0, 0, 0, 0});
    return;
  }
  if (!write) {
    // A read looks at the whole granule at once: two 16-byte loads, issued together.
    td_u32x4 words = *(const volatile td_u32x4*)&s.w_aux;  // w_aux, r_aux, written, pad
    bool uninit = init && (words.z & bytes) != bytes;
    td_u64x2 tags = *(const volatile td_u64x2*)&s.w;  // w, r
    unsigned long long w = tags.x, r = tags.y;
    bool raw = td_conflicts(w, words.x, bytes, atomic, me);
    // Broadcast reads (a tile element every thread of the block reads) keep the first reader of the
    // epoch: enough to find a write that races with one of them, and no shadow store per read.
    bool kept = TD_TAG_THREAD(r) && !((r ^ me.tag) >> TD_TAG_BLOCK_SHIFT) && words.y == me.aux &&
                (TD_TAG_BYTES(r) & bytes) == bytes;
    if (!kept) {
      s.r = mine;
      s.r_aux = me.aux;
    }
    if (__builtin_expect(uninit | raw, 0)) {
      if (uninit) td_report_payload(sp.uninit, site, td_race_payload{off, 0, 0, 0, 0});
      if (raw) td_race_report(sp.raw, site, off, w);
    }
    return;
  }
  if ((*(volatile unsigned int*)&s.written & bytes) != bytes) {  // the first write of these bytes
    if (sp.concurrent) __atomic_fetch_or(&s.written, bytes, __ATOMIC_RELAXED);
    else __td_block_local_or(&s.written, bytes);
  }
  if (!race) return;
  unsigned long long old = td_swap(sp, &s.w, mine);
  // The previous writer's counts, read after the exchange: it stored them after its own, so this is the
  // latest moment they can be its.
  unsigned int aux = *(volatile unsigned int*)&s.w_aux;
  s.w_aux = me.aux;
  unsigned long long r = td_load(&s.r);
  bool waw = td_conflicts(old, aux, bytes, atomic, me), war = td_conflicts(r, s.r_aux, bytes, atomic, me);
  if (TD_TAG_THREAD(r) && (TD_TAG_BYTES(r) & ~bytes) == 0) s.r = 0;  // the last read is now overwritten
  if (__builtin_expect(waw | war, 0)) {
    if (waw) td_race_report(sp.raw + 2, site, off, old);
    if (war) td_race_report(sp.raw + 1, site, off, r);
  }
}

// Walks the granules of the `size` bytes at `off` of a shadow; bytes, not granules, decide: two threads
// writing the two halves of one 4-byte word do not race.
// `base`: subtracted from the reported offsets (the start of the accessed array, so a finding names the
// array's own element whatever layout the GPU's assembler chose).
static __device__ __forceinline__ void td_race_range(td_granule* shadow, unsigned long long off, unsigned int size,
                                                     unsigned int site, unsigned int kind, const td_space& sp,
                                                     unsigned long long base = 0) {
  td_accessor me = (kind & TD_CHECK_RACE) ? td_me() : td_accessor{};  // who accesses: for the race check only
  unsigned int lead = (unsigned int)off & 3u;
  if (lead + size <= 4) {  // within one granule, as nearly every access is: no loop
    td_race_granule(shadow[off / 4], ((1u << size) - 1) << lead, (long long)(off - base), site, kind, me, sp);
    return;
  }
  if (lead == 0 && (size & 3) == 0) {  // whole words (a vector access): every byte of each granule
    for (unsigned int k = 0; k < size / 4; ++k)
      td_race_granule(shadow[off / 4 + k], 0xfu, (long long)(off + 4 * k - base), site, kind, me, sp);
    return;
  }
  unsigned long long end = off + size;
  for (unsigned long long g = off / 4; g * 4 < end; ++g) {
    unsigned int lo = g * 4 < off ? (unsigned int)(off - g * 4) : 0u;
    unsigned int hi = end - g * 4 < 4 ? (unsigned int)(end - g * 4) : 4u;
    unsigned int bytes = (0xfu >> (4 - (hi - lo))) << lo;
    td_race_granule(shadow[g], bytes, (long long)(g * 4 + lo - base), site, kind, me, sp);
  }
}

extern "C" {

// A shared access of `size` bytes at p by this thread. kind: 0 read, 1 write, 2 atomic; +4 check
// uninitialised reads, +8 check races.
// `obj`/`obj_bytes`: the array the access belongs to (0 bytes: the dynamic array; obj null: unknown),
// and `obj_offset` the access's offset in it (negative ones wrap).
// Records carry the offset in `obj`, or in the window when the array is unknown.
TD_INLINE_ON_CPU __device__ void __td_race_shared(unsigned int site, const char* p, unsigned int size, unsigned int kind,
                                 const char* obj, unsigned long long obj_bytes, unsigned int obj_offset) {
  if (size == 0) return;
  // A static array (the pass says so: this folds): outside it is the bounds check's.
  if (obj_bytes && (unsigned long long)obj_offset + size > obj_bytes) return;
  unsigned int base = obj ? __td_shared_window_offset(obj) : 0u;
  unsigned int off = obj ? base + obj_offset : __td_shared_window_offset(p), end = off + size;
  if (!obj_bytes) {  // the dynamic array or unknown: checked against the window
    unsigned int limit = __td_shared_window_bytes();
    if (off >= limit) return;  // outside the window: the bounds check reports it
    end = end < limit ? end : limit;
  }
  if (end > td_region_bytes(TD_REGION_SHARED_SHADOW) / sizeof(td_granule) * 4) return;  // beyond the shadow
  td_race_range((td_granule*)__td_region(TD_REGION_SHARED_SHADOW), off, end - off, site, kind,
                td_space{TD_KIND_SHARED_RAW, TD_KIND_SHARED_UNINIT, false}, base);
}

// A global access through kernel argument `arg`: races within and across blocks, and reads of an
// init = "uninit" buffer's bytes nobody wrote. Accesses outside the buffer are the bounds check's.
TD_INLINE_ON_CPU __device__ void __td_race_global(unsigned int site, unsigned int arg, const char* p, unsigned int size,
                                 unsigned int kind) {
  const td_buffer& b = __td_ctl.buffers[arg];
  td_granule* shadow = (td_granule*)td_buffer_region(TD_REGION_BUFFER_SHADOW, arg);
  if (!shadow || size == 0) return;
  unsigned long long off = (unsigned long long)p - b.base;
  if (off >= b.bytes || b.bytes - off < size) return;
  if (!(b.flags & TD_BUFFER_UNINIT)) kind &= ~TD_CHECK_INIT;
  if (!(kind & TD_CHECKS)) return;  // a read-only buffer that starts initialised: nothing to check
  td_race_range(shadow, off, size, site, kind,
                td_space{TD_KIND_GLOBAL_RAW, TD_KIND_GLOBAL_UNINIT, true});
}

}  // extern "C"
