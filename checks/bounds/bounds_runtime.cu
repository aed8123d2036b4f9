// Family "bounds", device side: the verdict on every access the bounds pass guards (global buffers,
// shared arrays, the shared window), and the records of accesses outside or misaligned.
#include "td_core.cuh"
#include "checks/bounds/bounds_abi.h"

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
    td_report_payload(outside ? oob_kind : TD_KIND_MISALIGNED, site, td_access_payload{off, (unsigned long long)p});
    return 0;
  }
  return 1;
}

extern "C" {

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

}  // extern "C"
