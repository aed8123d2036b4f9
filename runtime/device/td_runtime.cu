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

// An access through a pointer the pass could not attribute: no check, but the site is noted so a fault
// it causes can be reported at the right line.
__device__ void __td_unchecked_access(unsigned int site) { __td_mark_site(site); }

}  // extern "C"
