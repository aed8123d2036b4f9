// Containment, the device side: what keeps a checked kernel's accesses inside memory its launch gave it
// (docs/security.md). Not a check family: instrument/containment_pass calls these hooks on every access no
// check already confines, whichever families run. A hook returns 1 where the access may go on; a wild one
// is recorded (TD_KIND_WILD_ACCESS) and the pass's guard skips it (a read yields 0).
#pragma once

extern "C" {
// Executor primitives: is [p, p + size) inside the block's shared window (the kernel's own bytes), or
// inside the calling thread's own stack (the CPU) or local memory (the GPU)?
__device__ bool __td_in_shared_window(const void* p, unsigned long long size);
__device__ bool __td_in_own_stack(const void* p, unsigned long long size);
}

// [a, a + size) inside [base, base + bytes), without overflow for any address.
static __device__ __forceinline__ bool td_within(unsigned long long a, unsigned long long size, unsigned long long base,
                                                 unsigned long long bytes) {
  // Written as the bounds family writes its test: with constant sizes, one compare of the offset against a
  // constant, which the loop passes fold from an induction variable's range (`off <= bytes && size <=
  // bytes - off`, the same test, becomes a mask they do not).
  unsigned long long off = a - base;
  return bytes >= size && off <= bytes - size;
}

static __device__ __forceinline__ bool td_in_objects(unsigned long long a, unsigned long long size, const td_object* objects,
                                                     unsigned int count) {
  for (unsigned int i = 0; i < count; ++i)
    if (td_within(a, size, (unsigned long long)objects[i].base, objects[i].bytes)) return true;
  return false;
}

// The record of a wild access: its address and the buffer nearest it, so the report can say "64 bytes
// past the end of 'out'" rather than an address alone.
static __device__ __attribute__((noinline, cold)) void td_wild_access(unsigned int site, const void* p, unsigned int size) {
  unsigned long long a = (unsigned long long)p, best = ~0ull;
  td_wild_payload w{a, 0, size, -1};
  for (unsigned int i = 0; i < __td_ctl.nbuffers && i < TD_MAX_BUFFERS; ++i) {
    const td_buffer& b = __td_ctl.buffers[i];
    if (!b.bytes) continue;
    unsigned long long d = a < b.base ? b.base - a : a - b.base < b.bytes ? 0 : a - (b.base + b.bytes) + 1;
    if (d < best) best = d, w.object = (int)i, w.offset = (long long)(a - b.base);
  }
  td_report_payload(TD_KIND_WILD_ACCESS, site, w, false, true);  // written here: no call in this call (td_core.cuh)
}

extern "C" {

// An access whose pointer comes from nowhere the compiler could follow (an integer, memory, a helper
// called with several objects): any buffer, the shared window, the thread's stack or one of the module's
// variables.
__device__ TD_INLINE_ON_CPU int __td_contain_any(unsigned int site, const void* p, unsigned int size,
                                                 const td_object* objects, unsigned int count) {
  unsigned long long a = (unsigned long long)p;
  for (unsigned int i = 0; i < __td_ctl.nbuffers && i < TD_MAX_BUFFERS; ++i)
    if (td_within(a, size, __td_ctl.buffers[i].base, __td_ctl.buffers[i].bytes)) return 1;
  if (__td_in_shared_window(p, size) || __td_in_own_stack(p, size) || td_in_objects(a, size, objects, count)) return 1;
  td_wild_access(site, p, size);
  return 0;
}

// An access through buffer argument `arg` while the bounds family is off: its own buffer first (a store
// past it into another buffer is the bounds family's to report, not a wild access).
__device__ TD_INLINE_ON_CPU int __td_contain_arg(unsigned int site, unsigned int arg, const void* p, unsigned int size,
                                                 const td_object* objects, unsigned int count) {
  if (arg < TD_MAX_BUFFERS && td_within((unsigned long long)p, size, __td_ctl.buffers[arg].base, __td_ctl.buffers[arg].bytes))
    return 1;
  return __td_contain_any(site, p, size, objects, count);
}

// An access through a __shared__ array (the bounds family off): the block's window first.
__device__ TD_INLINE_ON_CPU int __td_contain_shared(unsigned int site, const void* p, unsigned int size,
                                                    const td_object* objects, unsigned int count) {
  if (__td_in_shared_window(p, size)) return 1;
  return __td_contain_any(site, p, size, objects, count);
}

// An access through a known __shared__ array (the bounds family off): inside that array (`array_bytes` 0:
// the dynamic one, sized at launch), else as any shared access. The first test is the one the optimiser
// proves from the indices' ranges, as it proves the bounds family's: a provably contained access then costs
// nothing, and keeps its shared-space load where a guard's select would make it generic.
__device__ TD_INLINE_ON_CPU int __td_contain_shared_array(unsigned int site, const void* p, unsigned int size,
                                                          const void* array, unsigned long long array_bytes,
                                                          const td_object* objects, unsigned int count) {
  unsigned long long bytes = array_bytes ? array_bytes : __td_ctl.dynamic_shared_bytes;
  if (td_within((unsigned long long)p, size, (unsigned long long)array, bytes)) return 1;
  return __td_contain_shared(site, p, size, objects, count);
}

// An access through one local array or variable of the module, whose size the pass knows: inside it.
__device__ TD_INLINE_ON_CPU int __td_contain_object(unsigned int site, const void* p, unsigned int size, const void* base,
                                                    unsigned long long bytes) {
  if (td_within((unsigned long long)p, size, (unsigned long long)base, bytes)) return 1;
  td_report_payload(TD_KIND_WILD_ACCESS, site,
                    td_wild_payload{(unsigned long long)p, (long long)((const char*)p - (const char*)base), size,
                                    TD_WILD_OWN_OBJECT});
  return 0;
}

// A call through a pointer: one of the module's functions whose address the kernel takes.
__device__ int __td_contain_callee(unsigned int site, const void* callee, const void* const* functions,
                                   unsigned int count) {
  for (unsigned int i = 0; i < count; ++i)
    if (functions[i] == callee) return 1;
  td_wild_access(site, callee, 0);
  return 0;
}

}  // extern "C"
