// tile-doctor device runtime: the hooks the instrumentation passes call, written once in CUDA-dialect C++.
// Compiled by tile-doctor's own frontend to NVPTX IR and linked into every instrumented module; the GPU
// executor runs it natively, the CPU executor after retargeting. Executors supply only the primitives
// declared below (thread identity comes from the usual builtins, which each executor lowers).
#include "td_abi.h"

extern "C" {

__device__ td_ctl __td_ctl;
// Skipped loads and stores are redirected here (their values are discarded), so guards need no branches.
__device__ __attribute__((aligned(64))) unsigned long long __td_sink[8];

// Executor primitives.
__device__ unsigned int __td_shared_window_offset(const void* p);  // byte offset of p in the block's shared window
__device__ unsigned int __td_shared_window_bytes();                // static + dynamic shared bytes of this launch
__device__ void __td_mark_site(unsigned int site);                 // last site a thread reached (fault reports)
// Race checks: this thread's counters ([0] full-block barriers passed, [1] full-warp __syncwarps), the
// block's count of other synchronisation (mbarrier, partial barriers), the block's shared-memory shadow
// (one td_granule per 4 bytes), and the shadow word exchange: atomic where blocks run concurrently on
// one shadow (the GPU), plain where one OS thread runs the block (the CPU).
__device__ unsigned int* __td_thread_epochs();
__device__ unsigned int* __td_block_sync_count();
__device__ td_granule* __td_race_shadow();
__device__ unsigned long long __td_shadow_swap(unsigned long long* p, unsigned long long v);
__device__ void __td_shadow_or(unsigned int* p, unsigned int v);
// Barrier and warp-mask checks: the block's td_block_checks (abi.h), zero when it starts.
__device__ td_block_checks* __td_block_checks();
// Hang reports: this thread's word of the wait board (abi.h), or null where the executor sees waiting
// threads itself (the CPU scheduler).
__device__ unsigned int* __td_wait_slot();

static __device__ __forceinline__ void td_note_wait(unsigned int word) {
  if (unsigned int* slot = __td_wait_slot()) *(volatile unsigned int*)slot = word;
}

static __device__ __attribute__((noinline, cold)) void td_report(unsigned int kind, unsigned int site, long long offset,
                                                            const void* addr, unsigned int other_block = 0) {
  unsigned int n = atomicAdd(&__td_ctl.hits[site * TD_KIND_COUNT + kind], 1u);
  if (n >= TD_RECORDS_PER_SITE) return;
  td_channel* ch = __td_ctl.channel;
  unsigned int slot = atomicAdd(&ch->cursor, 1u);
  if (slot >= ch->capacity) return;
  td_record* r = &ch->records[slot];
  r->kind = kind;
  r->site = site;
  r->block[0] = blockIdx.x; r->block[1] = blockIdx.y; r->block[2] = blockIdx.z;
  r->thread[0] = threadIdx.x; r->thread[1] = threadIdx.y; r->thread[2] = threadIdx.z;
  r->offset = offset;
  r->addr = (unsigned long long)addr;
  r->other_block = other_block;
  __threadfence_system();
}

// A thread about to stop the kernel (a failed assert, __trap): its record names it before the GPU traps
// or the CPU executor ends the grid.
__device__ void __td_kernel_stop(unsigned int kind, unsigned int site) { td_report(kind, site, 0, nullptr); }

// The verdict on an access `off` bytes into an object of `limit` bytes. `align` is the alignment the
// access needs on the GPU: a power of two, 1 for byte-wise copies. Returns 0 when it must be skipped.
// `base_aligned` says the object's start is aligned to `align`, so the offset alone decides alignment
// (which lets the compiler fold the test when the offset is known).
static __device__ __forceinline__ int td_verdict(unsigned int oob_kind, unsigned int site, const char* p, long long off,
                                                 unsigned int size, unsigned int align, unsigned long long limit,
                                                 bool base_aligned = false) {
  if (size == 0) return 1;  // a zero-fill cp.async with src-size 0 reads nothing
  // One rarely taken branch per access: the common path computes both tests without branching.
  // One unsigned compare covers both ends: a negative offset is a huge unsigned one.
  bool outside = (limit < size) | ((unsigned long long)off > limit - size);
  bool misaligned = (((base_aligned ? (unsigned long long)off : (unsigned long long)p)) & (align - 1)) != 0;
  if (__builtin_expect(outside | misaligned, 0)) {
    td_report(outside ? oob_kind : TD_KIND_MISALIGNED, site, off, p);
    return 0;
  }
  return 1;
}

// An access of `size` bytes at `p` through kernel argument `arg`. Returns 0 when the access must be skipped.
__device__ int __td_check_global(unsigned int site, unsigned int arg, const char* p, unsigned int size,
                                                 unsigned int align) {
  const td_buffer& b = __td_ctl.buffers[arg];
  if (b.bytes == 0) return 1;  // not a buffer the bundle allocated (scalar, or unbound)
  return td_verdict(TD_KIND_GLOBAL_OOB, site, p, (long long)((unsigned long long)p - b.base), size, align, b.bytes);
}

// An access to shared object `obj` (obj_bytes long; 0 = the dynamic shared array, sized at launch)
// whose declared alignment is `obj_align`.
__device__ int __td_check_shared(unsigned int site, const char* p, unsigned int size, unsigned int align,
                                 const char* obj, unsigned long long obj_bytes, unsigned int obj_align) {
  unsigned long long limit = obj_bytes ? obj_bytes : __td_ctl.dynamic_shared_bytes;
  return td_verdict(TD_KIND_SHARED_OOB, site, p, (long long)(p - obj), size, align, limit, obj_align >= align);
}

// A shared access whose object the pass could not tell: checked against the block's whole window.
__device__ int __td_check_shared_window(unsigned int site, const char* p, unsigned int size, unsigned int align) {
  return td_verdict(TD_KIND_SHARED_OOB, site, p, (long long)__td_shared_window_offset(p), size, align,
                    __td_shared_window_bytes());
}

// Shadow tags (td_granule.w/.r): bits 0-10 the thread's linear id + 1 (0: none), 11-14 the bytes of the
// granule it accessed, 15 atomic, 16-31 the site (0xffff: one past 65534), 32-43 the linear block id
// modulo 4096 (blocks that alias only hide races), 44-63 the thread's full-block barrier count.
#define TD_TAG_THREAD(t) ((unsigned int)((t) & 0x7ffu))
#define TD_TAG_BYTES(t) ((unsigned int)((t) >> 11) & 0xfu)
#define TD_TAG_ATOMIC (1ull << 15)
#define TD_TAG_SITE(t) ((unsigned int)((t) >> 16) & 0xffffu)
#define TD_TAG_BLOCK_SHIFT 32
#define TD_TAG_BLOCK_MASK (0xfffull << TD_TAG_BLOCK_SHIFT)
#define TD_TAG_EPOCH_SHIFT 44

// Who is accessing: the tag without bytes, the aux word, the warp size.
struct td_accessor {
  unsigned long long tag;
  unsigned int aux, thread, ws;
};

static __device__ __forceinline__ unsigned int td_block_linear() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

static __device__ __forceinline__ unsigned int td_thread_linear() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ td_accessor td_me() {
  td_accessor a;
  a.thread = td_thread_linear();
  // Both counters in one 8-byte load (executors keep them 8-byte aligned): [0] low, [1] high. may_alias:
  // they are counted as ints, and this load must not move past a count.
  typedef unsigned long long __attribute__((may_alias, aligned(8))) td_counter_pair;
  unsigned long long ep = *(const td_counter_pair*)__td_thread_epochs();
  a.aux = ((unsigned int)(ep >> 32) & 0xffffu) | (*(volatile unsigned int*)__td_block_sync_count() << 16);
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
  td_report(kind, site, off, (const void*)TD_PARTNER(partner_site, TD_TAG_THREAD(tag) - 1),
            (unsigned int)((tag & TD_TAG_BLOCK_MASK) >> TD_TAG_BLOCK_SHIFT));
}

// Shadow kinds: the record kinds of one memory space (shared or global), in RAW, WAR, WAW, uninit order
// as in abi.h, and the word exchange that space's shadow needs.
struct td_space {
  unsigned int raw, uninit;
  bool concurrent;  // blocks share this shadow: exchange atomically
};

// Shadow words other threads exchange: read past the GPU's L1, which atomics bypass.
static __device__ __forceinline__ unsigned long long td_load(const unsigned long long* p) {
  return *(const volatile unsigned long long*)p;
}

static __device__ __forceinline__ unsigned long long td_swap(const td_space& sp, unsigned long long* p,
                                                             unsigned long long v) {
  return sp.concurrent ? __atomic_exchange_n(p, v, __ATOMIC_RELAXED) : __td_shadow_swap(p, v);
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
    if (init && (*(volatile unsigned int*)&s.written & bytes) != bytes) td_report(sp.uninit, site, off, 0);
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
      if (uninit) td_report(sp.uninit, site, off, 0);
      if (raw) td_race_report(sp.raw, site, off, w);
    }
    return;
  }
  if ((*(volatile unsigned int*)&s.written & bytes) != bytes) {  // the first write of these bytes
    if (sp.concurrent) __atomic_fetch_or(&s.written, bytes, __ATOMIC_RELAXED);
    else __td_shadow_or(&s.written, bytes);
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

// A shared access of `size` bytes at p by this thread. kind: 0 read, 1 write, 2 atomic; +4 check
// uninitialised reads, +8 check races.
// `obj`/`obj_bytes`: the array the access belongs to (0 bytes: the dynamic array; obj null: unknown),
// and `obj_offset` the access's offset in it (negative ones wrap).
// Records carry the offset in `obj`, or in the window when the array is unknown.
__device__ void __td_race_shared(unsigned int site, const char* p, unsigned int size, unsigned int kind,
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
  if (__td_ctl.shadow_granules && end > __td_ctl.shadow_granules * 4u) return;  // beyond the GPU's shadow
  td_race_range(__td_race_shadow(), off, end - off, site, kind,
                td_space{TD_KIND_SHARED_RAW, TD_KIND_SHARED_UNINIT, false}, base);
}

// A global access through kernel argument `arg`: races within and across blocks, and reads of an
// init = "uninit" buffer's bytes nobody wrote. Accesses outside the buffer are the bounds check's.
__device__ void __td_race_global(unsigned int site, unsigned int arg, const char* p, unsigned int size,
                                 unsigned int kind) {
  const td_buffer& b = __td_ctl.buffers[arg];
  if (!b.shadow || size == 0) return;
  unsigned long long off = (unsigned long long)p - b.base;
  if (off >= b.bytes || b.bytes - off < size) return;
  if (!(b.flags & TD_BUFFER_UNINIT)) kind &= ~TD_CHECK_INIT;
  if (!(kind & TD_CHECKS)) return;  // a read-only buffer that starts initialised: nothing to check
  td_race_range((td_granule*)b.shadow, off, size, site, kind,
                td_space{TD_KIND_GLOBAL_RAW, TD_KIND_GLOBAL_UNINIT, true});
}

// After (acquire) or before (release) a synchronising operation, for the race checks' counts. kind 0:
// a block barrier of `count` threads (0: all); 1: __syncwarp(mask); 2: other (mbarrier arrive or wait,
// bar.arrive). Full-block barriers and full-warp __syncwarps are counted per thread after they
// complete (every thread then agrees on the count); anything else bumps the block's other-sync count
// before it releases, so every access it orders sees a different count.
static __device__ __forceinline__ bool td_full_sync(unsigned int kind, unsigned int count) {
  return (kind == 0 && (count == 0 || count >= blockDim.x * blockDim.y * blockDim.z)) ||
         (kind == 1 && (count == 0xffffffffu || __popc(count) >= __td_warp_size()));
}
__device__ void __td_sync_passed(unsigned int kind, unsigned int count) {
  if (td_full_sync(kind, count)) ++__td_thread_epochs()[kind];
  if (kind == 0) td_note_wait(0);
}
__device__ void __td_sync_release(unsigned int kind, unsigned int count) {
  if (!td_full_sync(kind, count)) atomicAdd(__td_block_sync_count(), 1u);
}

// Barrier checks (family "sync"). Every thread that waits at the block's full barrier of generation g
// (the barriers it passed so far) claims slot g with its site; a thread finding another site there waits
// at a different barrier of the same generation. A thread that exits marks the exit slot with its
// generation: a thread waiting at that generation, before or after, waits for a barrier that completes
// without it.
static __device__ void td_barrier_report(unsigned int site, unsigned int other_site, unsigned int other_thread) {
  td_report(TD_KIND_BARRIER_DIVERGENCE, site, 0, (const void*)TD_PARTNER(other_site, other_thread),
            td_block_linear());
}

__device__ void __td_barrier_wait(unsigned int site, unsigned int count) {
  td_note_wait(site + 1);
  if (count != 0) return;  // a barrier with a thread count is a group's (bar.arrive may count towards it)
  unsigned long long gen = (unsigned long long)__td_thread_epochs()[0] + 1;
  td_barrier_slot* slots = __td_block_checks()->slots;
  td_barrier_slot& s = slots[gen % TD_BARRIER_SLOTS];
  unsigned long long mine = (gen << 32) | (site + 1), v = td_load(&s.key);
  while ((v >> 32) != gen) {
    if (__atomic_compare_exchange_n(&s.key, &v, mine, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      s.thread = td_thread_linear();
      v = mine;
    }
  }
  if ((v & 0xffffffffu) != site + 1) td_barrier_report(site, (unsigned int)(v & 0xffffffffu) - 1, s.thread);
  unsigned long long exited = td_load(&slots[TD_BARRIER_SLOTS].key);
  if (exited >> 32 == gen) td_barrier_report(site, TD_SITE_EXITED, slots[TD_BARRIER_SLOTS].thread);
}

// A barrier passed without waiting (bar.arrive): in a hang report, the other side of a counted barrier.
__device__ void __td_barrier_arrive(unsigned int site) { td_note_wait(TD_WAIT_ARRIVED | (site + 1)); }

__device__ void __td_thread_exit() {
  if (unsigned int* slot = __td_wait_slot()) *(volatile unsigned int*)slot |= TD_WAIT_EXITED;
  unsigned long long gen = (unsigned long long)__td_thread_epochs()[0] + 1;
  td_block_checks* checks = __td_block_checks();
  unsigned int me = td_thread_linear(), ws = __td_warp_size();
  if (me / ws < TD_MAX_WARPS) __atomic_fetch_or(&checks->exited_lanes[me / ws], 1ull << (me % ws), __ATOMIC_RELAXED);
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
    td_report(TD_KIND_WARP_MASK, site, TD_MASK_32_ON_WAVE64, (const void*)(unsigned long long)mask);
    return;  // the executor widens it to the whole wave, as the kernel meant
  }
  unsigned long long lanes = (ws == 64 && mask == 0xffffffffu) ? ~0ull : (unsigned long long)mask;
  if (!((lanes >> lane) & 1)) {
    td_report(TD_KIND_WARP_MASK, site, TD_MASK_MISSES_SELF, (const void*)(unsigned long long)mask);
    return;
  }
  if (me / ws < TD_MAX_WARPS && (td_load(&__td_block_checks()->exited_lanes[me / ws]) & lanes))
    td_report(TD_KIND_WARP_MASK, site, TD_MASK_NAMES_EXITED, (const void*)(unsigned long long)mask);
}

// An access through a pointer the pass could not attribute: no check, but the site is noted so a fault
// it causes can be reported at the right line.
__device__ void __td_unchecked_access(unsigned int site) { __td_mark_site(site); }

}  // extern "C"
