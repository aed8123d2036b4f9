// Families "race" and "init", device side: an access history per 4 bytes of shared memory and of every buffer
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

// A race record; a pair in two warps (or blocks) may take a place past the first few, so that a race whose
// first pairs were all within one warp still shows one that no lockstep could explain.
static __device__ __forceinline__ void td_race_report(unsigned int kind, unsigned int site, long long off,
                                                      unsigned long long tag, const td_accessor& me,
                                                      unsigned int hazard = 0) {
  unsigned int partner_site = TD_TAG_SITE(tag) == 0xffffu ? ~0u : TD_TAG_SITE(tag);
  bool twoWarps = ((tag ^ me.tag) & TD_TAG_BLOCK_MASK) || (TD_TAG_THREAD(tag) - 1) / me.ws != me.thread / me.ws;
  td_report_payload(kind, site, td_race_payload{off, TD_TAG_THREAD(tag) - 1, partner_site,
                                                (unsigned int)((tag & TD_TAG_BLOCK_MASK) >> TD_TAG_BLOCK_SHIFT), hazard},
                    twoWarps);
}

// The bytes a write stores, as the pass hands them over: the first 16, little-endian; `known` false where
// it could not (a memory intrinsic, an atomic, a copy the catalogue models, a wider store).
struct td_stored {
  unsigned long long lo, hi;
  bool known;
};

// One granule's view of a write: `value` its bytes at their places in the granule, `at` the granule's
// first byte in the memory itself (only the bytes the write touches are read through it).
struct td_granule_write {
  unsigned int value;
  bool known;
  const volatile unsigned char* at;
};

static __device__ __forceinline__ unsigned int td_byte_mask(unsigned int bytes) {
  return (bytes & 1u ? 0xffu : 0u) | (bytes & 2u ? 0xff00u : 0u) | (bytes & 4u ? 0xff0000u : 0u) | (bytes & 8u ? 0xff000000u : 0u);
}

// The part of 4-byte granule `g` that bytes [off, end) cover: its bytes lo..hi-1, as a mask (bit i: byte i).
struct td_granule_part {
  unsigned int lo, hi, bytes;
};
template <typename T>
static __device__ __forceinline__ td_granule_part td_part_of_granule(T g, T off, T end) {
  unsigned int lo = g * 4 < off ? (unsigned int)(off - g * 4) : 0u;
  unsigned int hi = end - g * 4 < 4 ? (unsigned int)(end - g * 4) : 4u;
  return td_granule_part{lo, hi, (0xfu >> (4 - (hi - lo))) << lo};
}

// Byte `i` of what a write stores.
static __device__ __forceinline__ unsigned int td_stored_byte(const td_stored& v, unsigned long long i) {
  return i < 8 ? (unsigned int)(v.lo >> (8 * i)) & 0xffu : i < 16 ? (unsigned int)(v.hi >> (8 * (i - 8))) & 0xffu : 0u;
}

// A granule's value word (td_granule.written and .value as one 8-byte word, race_abi.h): the bytes written
// (bits 0-3), those whose value it holds (4-7), who wrote them last (8-30: a tag's thread and block), the
// value (32-63).
static __device__ __forceinline__ unsigned long long td_value_writer(unsigned long long tag) {
  return (unsigned long long)(TD_TAG_THREAD(tag) | (((tag & TD_TAG_BLOCK_MASK) >> TD_TAG_BLOCK_SHIFT) << 11)) << 8;
}
#define TD_VALUE_WRITER_MASK (0x7fffffull << 8)

// Does a value word hold these bytes of the write, as `writer` stored them?
static __device__ __forceinline__ bool td_word_holds(unsigned long long word, unsigned int bytes, const td_granule_write& g) {
  return (((unsigned int)word >> 4) & bytes) == bytes &&
         ((((unsigned int)(word >> 32)) ^ g.value) & td_byte_mask(bytes)) == 0;
}

// Does a write conflicting with an unordered access store the bytes already there, so that no order of the
// two changes what anyone reads? For a write-after-read, the bytes in memory now (the hook runs before the
// store) are those the read saw. For a write-after-write: what the history says, where the two value words
// (`before`, read before this write replaced it, and the word as it is now: concurrent GPU writers update value
// and tag one after the other) are the conflicting writer's (`other`), it decides; otherwise the bytes already
// there by either word (a writer other than this one), or in memory now (where the last write's value is
// unknown: an atomic, a memory intrinsic, cp.async).
static __device__ __forceinline__ bool td_same_value(const td_granule& s, unsigned long long before, unsigned long long other,
                                                     unsigned long long me, bool war, unsigned int bytes,
                                                     const td_granule_write& g) {
  if (!g.known) return false;
  bool inMemory = true;
  for (unsigned int k = 0; k < 4; ++k)
    if (((bytes >> k) & 1u) && g.at[k] != ((g.value >> (8 * k)) & 0xffu)) inMemory = false;
  if (war) return inMemory;
  unsigned long long now = *(const volatile unsigned long long*)&s.written, who = td_value_writer(other);
  if ((before & TD_VALUE_WRITER_MASK) == who) return td_word_holds(before, bytes, g);
  if ((now & TD_VALUE_WRITER_MASK) == who) return td_word_holds(now, bytes, g);
  return td_word_holds(before, bytes, g) ||
         ((now & TD_VALUE_WRITER_MASK) != td_value_writer(me) && td_word_holds(now, bytes, g)) || inMemory;
}

// History kinds: the record kinds of one memory space (shared or global): RAW (WAR and WAW follow it in
// abi.h), uninit and same-value writes, and the word exchange that space's history needs.
struct td_space {
  unsigned int raw, uninit, same;
  bool concurrent;  // blocks share this history: exchange atomically
  // Shared memory, for the init check: bytes written so far of each TD_WRITTEN_CHUNK of the window (null:
  // none kept). A read of a chunk every byte of which was written needs no look at its granules.
  unsigned int* written;
};

// Counts bytes written for the first time (`fresh`, a granule's byte mask) in their chunk's count. Rare: once
// per byte and launch, so an atomic on both executors.
static __device__ __forceinline__ void td_count_written(unsigned int* count, unsigned int fresh) {
  if (count && fresh) __atomic_fetch_add(count, (unsigned int)__builtin_popcount(fresh), __ATOMIC_RELAXED);
}

static __device__ __forceinline__ unsigned long long td_swap(const td_space& sp, unsigned long long* p,
                                                             unsigned long long v) {
  return sp.concurrent ? __atomic_exchange_n(p, v, __ATOMIC_RELAXED) : __td_block_local_swap(p, v);
}

// Replaces *p by v where it holds `expected` (true), else loads it into `expected` (false).
static __device__ __forceinline__ bool td_compare_exchange(const td_space& sp, unsigned long long* p, unsigned long long& expected,
                                                           unsigned long long v) {
  if (sp.concurrent) return __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  unsigned long long old = __td_block_local_cas(p, expected, v);
  bool done = old == expected;
  expected = old;
  return done;
}

// Updates a granule's value word for a write by `me` (a tag); returns the word before. A whole-granule
// write (nearly all) replaces the word; a narrower one merges it in.
static __device__ __forceinline__ unsigned long long td_record_value(td_granule& s, unsigned int bytes,
                                                                     const td_granule_write& g, unsigned long long me,
                                                                     const td_space& sp) {
  unsigned long long* word = (unsigned long long*)&s.written;
  unsigned long long mine = (unsigned long long)bytes | td_value_writer(me) |
                            (g.known ? ((unsigned long long)bytes << 4) | ((unsigned long long)g.value << 32) : 0ull);
  if (bytes == 0xfu) {
    // An exchange, not a load and a store: with a plain store two unordered writers could both read the word
    // before either replaced it, and neither would know the other's value (on the H200 every same-value
    // store of a layernorm's mean was then a race). A plain store was measured no cheaper (docs/performance.md).
    // The CPU runs a block on one OS thread: a shared history's word needs no atomic there.
    return td_swap(sp, word, mine);
  }
  unsigned long long value = (unsigned long long)td_byte_mask(bytes) << 32;  // the value bits of these bytes
  unsigned long long before = *(volatile unsigned long long*)word, after;
  do {
    after = ((before | bytes) & ~((unsigned long long)bytes << 4) & ~TD_VALUE_WRITER_MASK) | td_value_writer(me);
    after = g.known ? ((after | (mine & 0xffull)) & ~value) | (mine & value) : after & ~value;
  } while (!td_compare_exchange(sp, word, before, after));
  return before;
}

typedef unsigned long long td_u64x2 __attribute__((ext_vector_type(2)));
typedef unsigned int td_u32x4 __attribute__((ext_vector_type(4)));

// One 4-byte granule of an access: `bytes` the granule's bytes it touches, `off` the reported offset, `g`
// what a write stores there.
// `written`: the count of the granule's chunk (td_space), or null.
static __device__ __forceinline__ void td_race_granule(td_granule& s, unsigned int bytes, long long off, unsigned int site,
                                                       unsigned int kind, const td_accessor& me, const td_space& sp,
                                                       const td_granule_write& g, unsigned int* written) {
  unsigned int access = kind & TD_ACCESS_MASK;
  bool atomic = access == TD_ACCESS_ATOMIC || access == TD_ACCESS_ATOMIC_READ;
  bool write = access == TD_ACCESS_WRITE || access == TD_ACCESS_ATOMIC;
  bool race = kind & TD_CHECK_RACE, init = kind & TD_CHECK_INIT;
  unsigned long long mine = me.tag | ((unsigned long long)bytes << 11) | (atomic ? TD_TAG_ATOMIC : 0ull) |
                            ((unsigned long long)(site < 0xffffu ? site : 0xffffu) << 16);
  // Findings are reported after the history is up to date: the reports are calls the compiler cannot see
  // through, so checking first and reporting last lets it issue the history loads together and keep the
  // common path free of branches.
  if (!write && !race) {  // the init check needs only the written bytes
    if (init && (*(volatile unsigned int*)&s.written & bytes) != bytes) td_report_payload(sp.uninit, site, td_race_payload{off, 0, 0, 0, 0});
    return;
  }
  if (!write) {
    // A read looks at the whole granule at once: two 16-byte loads, issued together, the tags first (a
    // writer stores its counts before its tag, so these counts are the tag's or a later writer's).
    td_u64x2 tags = *(const volatile td_u64x2*)&s.w;  // w, r
    td_u32x4 words = *(const volatile td_u32x4*)&s.w_aux;  // w_aux, r_aux, written, value
    bool uninit = init && (words.z & bytes) != bytes;
    unsigned long long w = tags.x, r = tags.y;
    bool raw = td_conflicts(w, words.x, bytes, atomic, me);
    // Broadcast reads (a tile element every thread of the block reads) keep the first reader of the
    // epoch: enough to find a write that races with one of them, and no history store per read.
    // An atomic reader kept gives way to a plain one, which races with atomic writes where it does not.
    bool kept = TD_TAG_THREAD(r) && !((r ^ me.tag) >> TD_TAG_BLOCK_SHIFT) && words.y == me.aux &&
                (TD_TAG_BYTES(r) & bytes) == bytes && (atomic || !(r & TD_TAG_ATOMIC));
    if (!kept) {  // the counts before the tag, as a writer stores them
      *(volatile unsigned int*)&s.r_aux = me.aux;
      *(volatile unsigned long long*)&s.r = mine;
    }
    if (__builtin_expect(uninit | raw, 0)) {
      if (uninit) td_report_payload(sp.uninit, site, td_race_payload{off, 0, 0, 0, 0});
      if (raw) td_race_report(sp.raw, site, off, w, me);
    }
    return;
  }
  if (!race) {
    if ((*(volatile unsigned int*)&s.written & bytes) != bytes) {  // the first write of these bytes
      unsigned int old = sp.concurrent ? __atomic_fetch_or(&s.written, bytes, __ATOMIC_RELAXED)
                                       : __td_block_local_or(&s.written, bytes);
      td_count_written(written, bytes & ~old);  // a write without the race check carries the init check
    }
    return;
  }
  unsigned long long before = td_record_value(s, bytes, g, me.tag, sp);
  if (init) td_count_written(written, bytes & ~(unsigned int)before & 0xfu);
  // The last write's tag and its counts are two words, replaced together: the tag is taken (TD_TAG_BUSY)
  // while its counts are read and replaced, then put back, after them. Exchanged one after the other, a
  // writer interrupted between the two (a lane of a diverged warp, which the GPU runs by turns) left the
  // next one its tag with the counts before it, and a same-warp race went unreported.
  unsigned long long old = td_swap(sp, &s.w, TD_TAG_BUSY);
  while (old == TD_TAG_BUSY) old = td_swap(sp, &s.w, TD_TAG_BUSY);
  __td_block_order();
  unsigned int aux = *(volatile unsigned int*)&s.w_aux;
  // An atomic after this thread's own plain write of the granule, nothing between: the plain write stays
  // the one kept, as it races with more (another thread's atomic: `if (tid == 0) n = 0;` with no barrier
  // before everyone's atomicAdd(&n, ...)).
  if (atomic && TD_TAG_THREAD(old) == me.thread + 1 && !(old & TD_TAG_ATOMIC) &&
      !((old ^ me.tag) >> TD_TAG_BLOCK_SHIFT) && aux == me.aux)
    mine = old | ((unsigned long long)bytes << 11);
  *(volatile unsigned int*)&s.w_aux = me.aux;
  __td_block_order();
  *(volatile unsigned long long*)&s.w = mine;
  unsigned long long r = td_load(&s.r);
  unsigned int r_aux = *(volatile unsigned int*)&s.r_aux;  // after the tag: its reader's counts or a later one's
  bool waw = td_conflicts(old, aux, bytes, atomic, me), war = td_conflicts(r, r_aux, bytes, atomic, me);
  if (TD_TAG_THREAD(r) && (TD_TAG_BYTES(r) & ~bytes) == 0) s.r = 0;  // the last read is now overwritten
  if (__builtin_expect(waw | war, 0)) {
    // A write of the bytes already there changes nothing another thread can see: counted apart, and
    // reported as a race only when asked (--strict-races).
    if (waw) {
      bool same = td_same_value(s, before, old, me.tag, false, bytes, g);
      td_race_report(same ? sp.same : sp.raw + 2, site, off, old, me, same ? 2u : 0u);
    }
    if (war) {
      bool same = td_same_value(s, before, r, me.tag, true, bytes, g);
      td_race_report(same ? sp.same : sp.raw + 1, site, off, r, me, same ? 1u : 0u);
    }
  }
}

// The count of granule `g`'s chunk, or null.
static __device__ __forceinline__ unsigned int* td_chunk_count(const td_space& sp, unsigned long long g) {
  return sp.written ? sp.written + g / (TD_WRITTEN_CHUNK / 4) : nullptr;
}

// Walks the granules of the `size` bytes at `off` of a history; bytes, not granules, decide: two threads
// writing the two halves of one 4-byte word do not race. `p`: the access's first byte in memory; `v`: what
// a write stores.
// `base`: subtracted from the reported offsets (the start of the accessed array, so a finding names the
// array's own element whatever layout the GPU's assembler chose).
static __device__ __forceinline__ void td_race_range(td_granule* history, unsigned long long off, unsigned int size,
                                                     unsigned int site, unsigned int kind, const td_space& sp,
                                                     const char* p, const td_stored& v, unsigned long long base = 0) {
  // Who accesses: for the race check only. The warp size either way, so that where `kind` is not a constant
  // (a hook called, not inlined) divisions by it still fold to shifts, not the GPU's division routine.
  td_accessor me = (kind & TD_CHECK_RACE) ? td_me() : td_accessor{0, 0, 0, (unsigned int)__td_warp_size()};
  unsigned int lead = (unsigned int)off & 3u;
  const volatile unsigned char* granule0 = (const volatile unsigned char*)p - lead;
  if (lead + size <= 4) {  // within one granule, as nearly every access is: no loop
    td_race_granule(history[off / 4], ((1u << size) - 1) << lead, (long long)(off - base), site, kind, me, sp,
                    td_granule_write{(unsigned int)(v.lo << (8 * lead)), v.known, granule0}, td_chunk_count(sp, off / 4));
    return;
  }
  if (lead == 0 && (size & 3) == 0) {  // whole words (a vector access): every byte of each granule
    for (unsigned int k = 0; k < size / 4; ++k)
      td_race_granule(history[off / 4 + k], 0xfu, (long long)(off + 4 * k - base), site, kind, me, sp,
                      td_granule_write{(unsigned int)((k < 2 ? v.lo : v.hi) >> (32 * (k & 1))), v.known && k < 4,
                                       granule0 + 4 * k},
                      td_chunk_count(sp, off / 4 + k));
    return;
  }
  unsigned long long end = off + size;
  for (unsigned long long g = off / 4; g * 4 < end; ++g) {
    td_granule_part part = td_part_of_granule(g, off, end);
    unsigned int value = 0;
    for (unsigned int j = part.lo; j < part.hi; ++j) value |= td_stored_byte(v, g * 4 + j - off) << (8 * j);
    td_race_granule(history[g], part.bytes, (long long)(g * 4 + part.lo - base), site, kind, me, sp,
                    td_granule_write{value, v.known && size <= 16, granule0 + (g * 4 - off / 4 * 4)}, td_chunk_count(sp, g));
  }
}

extern "C" {

// A shared access of `size` bytes at p by this thread. kind: 0 read, 1 write, 2 atomic; +4 check
// uninitialised reads, +8 check races; +16 a write whose first 16 bytes are value_lo, value_hi.
// `obj`/`obj_bytes`: the array the access belongs to (0 bytes: the dynamic array; obj null: unknown),
// and `obj_offset` the access's offset in it (negative ones wrap).
// Records carry the offset in `obj`, or in the window when the array is unknown.
// Inlined on the GPU too: called, its body for every size and kind held the GEMM's race+sync kernel at 128
// registers (80 inlined, each call site folding to its access's own path).
TD_INLINE_ON_CPU __attribute__((always_inline)) __device__ void __td_race_shared(unsigned int site, const char* p, unsigned int size, unsigned int kind,
                                 const char* obj, unsigned long long obj_bytes, unsigned int obj_offset,
                                 unsigned long long value_lo, unsigned long long value_hi) {
  if (size == 0 || !(kind & TD_CHECKS)) return;  // no checks: a store its launch shows race-free (race_pass.cpp)
  // A static array (the pass says so: this folds): outside it is the bounds check's.
  if (obj_bytes && (unsigned long long)obj_offset + size > obj_bytes) return;
  unsigned int base = obj ? __td_shared_window_offset(obj) : 0u;
  unsigned int off = obj ? base + obj_offset : __td_shared_window_offset(p), end = off + size;
  if (!obj_bytes) {  // the dynamic array or unknown: checked against the window
    unsigned int limit = __td_shared_window_bytes();
    if (off >= limit) return;  // outside the window: the bounds check reports it
    end = end < limit ? end : limit;
  }
  if (end > td_region_bytes(TD_REGION_SHARED_HISTORY) / sizeof(td_granule) * 4) return;  // beyond the history
  // The chunks' counts of bytes written are kept wherever the history is (a write counts only bytes written
  // for the first time: rare). A read checked for init alone, of chunks written through, has nothing to check
  // (the counts only grow; a count read stale sends the read the long way, which finds the same); tested
  // where the history lies in memory caches must hold (the CPU executor's; a GPU's when it does not fit the
  // shared tail): in the GPU's shared memory a granule is as near as its chunk's count, and the count's test
  // only adds to the granule's (measured on the H100: init 4.4x -> 4.7x on the GEMM). A loop's reads checked
  // before it test the counts everywhere: one per 256 bytes against one granule per 4.
  unsigned int* written = (unsigned int*)__td_region(TD_REGION_SHARED_WRITTEN);
  if ((kind & (TD_ACCESS_MASK | TD_CHECKS)) == (TD_ACCESS_READ | TD_CHECK_INIT) && written &&
      !td_region_in_shared(TD_REGION_SHARED_HISTORY) && written[off / TD_WRITTEN_CHUNK] == TD_WRITTEN_CHUNK &&
      written[(end - 1) / TD_WRITTEN_CHUNK] == TD_WRITTEN_CHUNK)
    return;
  td_race_range((td_granule*)__td_region(TD_REGION_SHARED_HISTORY), off, end - off, site, kind,
                td_space{TD_KIND_SHARED_RAW, TD_KIND_SHARED_UNINIT, TD_KIND_SHARED_SAME_VALUE, false, written}, p,
                td_stored{value_lo, value_hi, (kind & TD_ACCESS_VALUE) != 0}, base);
}

// The bytes of `size` at window offset `off` that no thread wrote, as a mask over their granules (0: all written).
// No branch: as many granules as `size` bytes can touch at any alignment (a constant where `size` is), the
// last one again where they touch fewer, so a loop over elements issues its loads together. Plain loads:
// the moved checks run where no thread writes the array (hoisted_init_reads.h).
static __device__ __forceinline__ unsigned int td_unwritten(const td_granule* history, unsigned int off, unsigned int size) {
  unsigned int missing = 0, end = off + size, last = (end - 1) / 4;
  for (unsigned int j = 0; j <= (size + 2) / 4; ++j) {
    unsigned int g = off / 4 + j < last ? off / 4 + j : last;
    missing |= td_part_of_granule(g, off, end).bytes & ~history[g].written;
  }
  return missing;
}

// The init checks of a loop's reads of a shared array, before the loop (checks/race/hoisted_init_reads.h):
// `count` reads of `size` bytes at offsets `first` + k * `stride` in the array, each checked as
// __td_race_shared checks it. First without a branch per element (the loads issue together); only where
// some byte is missing, element by element with the reports.
TD_INLINE_ON_CPU __device__ void __td_init_shared_strided(unsigned int site, const char* obj, unsigned long long obj_bytes,
                                                          unsigned long long first, unsigned long long stride,
                                                          unsigned long long count, unsigned int size) {
  if (stride == 0 && count) count = 1;  // one element, read again and again
  if (!count || !size) return;
  long long last = (long long)first + (long long)(count - 1) * (long long)stride;
  unsigned long long lo = last < (long long)first ? (unsigned long long)last : first;
  unsigned long long hi = (last < (long long)first ? first : (unsigned long long)last) + size;
  if (obj_bytes && (long long)lo >= 0 && hi <= obj_bytes) {  // every element inside the array
    unsigned long long base = __td_shared_window_offset(obj);
    // Chunks written through cover the whole span at once: one count per 256 bytes (__td_race_shared).
    if (const unsigned int* written = (const unsigned int*)__td_region(TD_REGION_SHARED_WRITTEN)) {
      unsigned long long c = (base + lo) / TD_WRITTEN_CHUNK, end = (base + hi - 1) / TD_WRITTEN_CHUNK;
      while (c <= end && written[c] == TD_WRITTEN_CHUNK) ++c;
      if (c > end) return;
    }
    if (base + hi <= td_region_bytes(TD_REGION_SHARED_HISTORY) / sizeof(td_granule) * 4) {
      const td_granule* history = (const td_granule*)__td_region(TD_REGION_SHARED_HISTORY);
      unsigned int missing = 0, off = (unsigned int)(base + first), span = (unsigned int)(hi - lo);
      long long step = (long long)stride;
      if (step <= (long long)size && -step <= (long long)size) {
        // Elements that touch or overlap (a row read along): one span, each granule once.
        unsigned int from = (unsigned int)(base + lo), end = from + span;
#pragma unroll 4
        for (unsigned int g = from / 4; g * 4 < end; ++g) missing |= td_part_of_granule(g, from, end).bytes & ~history[g].written;
      } else if (((off | (unsigned int)stride | size) & 3) == 0) {
        // Whole granules (a column of aligned words): no masks.
#pragma unroll 4
        for (unsigned long long k = 0; k < count; ++k, off += (unsigned int)stride)
          for (unsigned int j = 0; j < size / 4; ++j) missing |= ~history[off / 4 + j].written & 0xfu;
      } else {
#pragma unroll 4
        for (unsigned long long k = 0; k < count; ++k, off += (unsigned int)stride) missing |= td_unwritten(history, off, size);
      }
      if (!missing) return;
    }
  }
  unsigned int off = (unsigned int)first;
  for (unsigned long long k = 0; k < count; ++k, off += (unsigned int)stride)
    __td_race_shared(site, obj + off, size, TD_ACCESS_READ | TD_CHECK_INIT, obj, obj_bytes, off, 0, 0);
}

// A global access through kernel argument `arg`: races within and across blocks, and reads of an
// init = "uninit" buffer's bytes nobody wrote. Accesses outside the buffer are the bounds check's.
// Inlined on the GPU too, as __td_race_shared: called, its body for every kind and size, with its report calls
// inside the call, set the block reduction's registers (90 of 92 with every check; inlined: 80, each site
// folding to its own access's path).
TD_INLINE_ON_CPU __attribute__((always_inline)) __device__ void __td_race_global(unsigned int site, unsigned int arg, const char* p, unsigned int size,
                                 unsigned int kind, unsigned long long value_lo, unsigned long long value_hi) {
  const td_buffer& b = __td_ctl.buffers[arg];
  td_granule* history = (td_granule*)td_buffer_region(TD_REGION_BUFFER_HISTORY, arg);
  if (!history || size == 0) return;
  unsigned long long off = (unsigned long long)p - b.base;
  if (off >= b.bytes || b.bytes - off < size) return;
  if (!(b.flags & TD_BUFFER_UNINIT)) kind &= ~TD_CHECK_INIT;
  if (!(kind & TD_CHECKS)) return;  // a read-only buffer that starts initialised: nothing to check
  td_race_range(history, off, size, site, kind,
                td_space{TD_KIND_GLOBAL_RAW, TD_KIND_GLOBAL_UNINIT, TD_KIND_GLOBAL_SAME_VALUE, true, nullptr}, p,
                td_stored{value_lo, value_hi, (kind & TD_ACCESS_VALUE) != 0});
}

}  // extern "C"
