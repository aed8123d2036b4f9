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
// Race checks (CPU executor): [0] the block's completed barriers, [1 + w] warp w's completed __syncwarps;
// and the block's race shadow (one td_granule per 4 shared bytes).
__device__ const unsigned int* __td_sync_epochs();
__device__ td_granule* __td_race_shadow();

static __device__ __attribute__((noinline, cold)) void td_report(unsigned int kind, unsigned int site, long long offset,
                                                            const void* addr) {
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
  __threadfence_system();
}

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

// Shadow tags (td_granule): bits 0-15 the thread's linear id + 1 (0: none), 16-19 the bytes of the granule
// it accessed, 20-23 (write tags only) every byte any thread wrote in this launch, bit 31 atomic.
#define TD_TAG_THREAD(t) (((t) & 0xffffu) - 1)
#define TD_TAG_BYTES(t) (((t) >> 16) & 0xfu)
#define TD_TAG_WRITTEN(t) (((t) >> 20) & 0xfu)
#define TD_TAG_ATOMIC 0x80000000u

// Is the access stored in (tag, block epoch, warp epoch) ordered before the one being made now? The
// same thread: program order; a barrier completed since: yes; the same warp with a __syncwarp since: yes.
static __device__ __forceinline__ bool td_ordered(unsigned int tag, unsigned int be, unsigned int we, unsigned int me,
                                                  unsigned int my_be, unsigned int my_we, unsigned int ws) {
  unsigned int other = TD_TAG_THREAD(tag);
  if (other == me || be != my_be) return true;
  return other / ws == me / ws && we != my_we;
}

static __device__ __forceinline__ void td_race_report(unsigned int kind, unsigned int site, unsigned int off,
                                                      unsigned int partner_site, unsigned int tag) {
  td_report(kind, site, off, (const void*)(((unsigned long long)partner_site << 32) | TD_TAG_THREAD(tag)));
}

// A shared access of `size` bytes at p by this thread. kind: 0 read, 1 write, 2 atomic; +4 check
// uninitialised reads, +8 check races. Bytes, not granules, decide: two threads writing the two halves
// of one 4-byte word do not race.
// `obj`/`obj_bytes`: the static array the access belongs to (0 bytes: the dynamic array or unknown).
__device__ void __td_race_shared(unsigned int site, const char* p, unsigned int size, unsigned int kind,
                                 const char* obj, unsigned long long obj_bytes) {
  if (obj_bytes && (p < obj || (unsigned long long)(p - obj) + size > obj_bytes)) return;  // the bounds check's
  unsigned int off = __td_shared_window_offset(p), limit = __td_shared_window_bytes();
  if (off >= limit || size == 0) return;  // outside the window: the bounds check reports it
  unsigned int end = off + size < limit ? off + size : limit;
  unsigned int ws = __td_warp_size();
  unsigned int me = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int* epochs = __td_sync_epochs();
  unsigned int be = epochs[0], we = epochs[1 + me / ws];
  bool atomic = (kind & 3) == 2, write = (kind & 3) != 0, race = kind & 8, init = kind & 4;
  td_granule* shadow = __td_race_shadow();
  for (unsigned int g = off / 4; g * 4 < end; ++g) {
    unsigned int lo = g * 4 < off ? off - g * 4 : 0, hi = end - g * 4 < 4 ? end - g * 4 : 4;
    unsigned int bytes = (0xfu >> (4 - (hi - lo))) << lo;
    td_granule& s = shadow[g];
    unsigned int tag = (me + 1) | (bytes << 16) | (atomic ? TD_TAG_ATOMIC : 0u);
    bool wr = s.w_thread && (TD_TAG_BYTES(s.w_thread) & bytes) && !(atomic && (s.w_thread & TD_TAG_ATOMIC)) &&
              !td_ordered(s.w_thread, s.w_block_epoch, s.w_warp_epoch, me, be, we, ws);
    if (!write) {
      if (init && (TD_TAG_WRITTEN(s.w_thread) & bytes) != bytes) td_report(TD_KIND_SHARED_UNINIT, site, g * 4 + lo, p);
      if (race && wr) td_race_report(TD_KIND_SHARED_RAW, site, g * 4 + lo, s.w_site, s.w_thread);
      // Broadcast reads (a tile element every thread reads) keep the first reader of the epoch: enough to
      // find a write that races with one of them, and no shadow store per read.
      if (s.r_thread && s.r_block_epoch == be && s.r_warp_epoch == we && (TD_TAG_BYTES(s.r_thread) & bytes) == bytes)
        continue;
      s.r_site = site; s.r_thread = tag; s.r_block_epoch = be; s.r_warp_epoch = we;
      continue;
    }
    if (race && wr) td_race_report(TD_KIND_SHARED_WAW, site, g * 4 + lo, s.w_site, s.w_thread);
    if (race && s.r_thread && (TD_TAG_BYTES(s.r_thread) & bytes) && !(atomic && (s.r_thread & TD_TAG_ATOMIC)) &&
        !td_ordered(s.r_thread, s.r_block_epoch, s.r_warp_epoch, me, be, we, ws))
      td_race_report(TD_KIND_SHARED_WAR, site, g * 4 + lo, s.r_site, s.r_thread);
    unsigned int written = (TD_TAG_WRITTEN(s.w_thread) | bytes) << 20;
    s.w_site = site; s.w_thread = tag | written; s.w_block_epoch = be; s.w_warp_epoch = we;
    if ((TD_TAG_BYTES(s.r_thread) & ~bytes) == 0) s.r_thread = 0;  // the last read is now overwritten
  }
}

// An access through a pointer the pass could not attribute: no check, but the site is noted so a fault
// it causes can be reported at the right line.
__device__ void __td_unchecked_access(unsigned int site) { __td_mark_site(site); }

}  // extern "C"
