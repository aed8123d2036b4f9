// tile-doctor device runtime, the part every check family shares: the control block, the executor
// primitives, the record channel. Written once in CUDA-dialect C++, compiled by tile-doctor's own
// frontend to NVPTX IR together with every family's device source (checks/*/..._runtime.cu, one
// translation unit the pipeline puts together) and linked into every instrumented module; the GPU
// executor runs it natively, the CPU executor after retargeting.
#pragma once
#include "td_abi.h"
#include "model/regions.h"

extern "C" {

__device__ td_ctl __td_ctl;
// Skipped loads and stores are redirected here (their values are discarded), so guards need no branches.
__device__ __attribute__((aligned(64))) unsigned long long __td_sink[8];

// Executor primitives. Thread identity comes from the usual builtins, which each executor lowers.
__device__ unsigned int __td_shared_window_offset(const void* p);  // byte offset of p in the block's shared window
__device__ unsigned int __td_shared_window_bytes();                // static + dynamic shared bytes of this launch
__device__ void __td_mark_site(unsigned int site);                 // last site a thread reached (fault reports)
// The calling thread's instance of region `id` (abi.h): the grid's, its block's or its own; null when the
// region is absent from this launch.
__device__ void* __td_region(unsigned int id);
// Word updates of memory only the calling block's threads use: atomic where they run concurrently (the
// GPU), plain where one OS thread runs the block (the CPU).
__device__ unsigned long long __td_block_local_swap(unsigned long long* p, unsigned long long v);
__device__ unsigned int __td_block_local_or(unsigned int* p, unsigned int v);
__device__ unsigned long long __td_block_local_cas(unsigned long long* p, unsigned long long expected, unsigned long long v);
// The calling block's threads see this thread's memory accesses before the call before those after it (a
// fence of the block's scope on the GPU; nothing where one OS thread runs the block).
__device__ void __td_block_order(void);

}  // extern "C"

// Hooks that are better inlined on the CPU than the inliner judges (large, but called per access): the
// CPU executor inlines every function so marked; the GPU leaves them to the inliner.
#define TD_INLINE_ON_CPU __attribute__((annotate("td.inline_on_cpu")))

// A record of `kind` at `site` by the calling thread, its payload as three words (td_report_payload packs a
// family's payload struct into them).
// `preferred`: a record worth one more place past TD_RECORDS_PER_SITE (a race pair in two warps, where the
// first records were all pairs within one warp); the counter's top bit says that place is taken.
static __device__ __forceinline__ void td_write_record(unsigned int kind, unsigned int site, unsigned long long w0,
                                                       unsigned long long w1, unsigned long long w2, bool preferred) {
  unsigned int* hits = &__td_ctl.hits[site * TD_KIND_COUNT + kind];
  unsigned int n = atomicAdd(hits, 1u) & ~TD_HITS_EXTRA_KEPT;
  if (n >= TD_RECORDS_PER_SITE && (!preferred || (atomicOr(hits, TD_HITS_EXTRA_KEPT) & TD_HITS_EXTRA_KEPT))) return;
  td_channel* ch = __td_ctl.channel;
  unsigned int slot = atomicAdd(&ch->cursor, 1u);
  if (slot >= ch->capacity) return;
  td_record* r = &ch->records[slot];
  r->kind = kind;
  r->site = site;
  r->block[0] = blockIdx.x; r->block[1] = blockIdx.y; r->block[2] = blockIdx.z;
  r->thread[0] = threadIdx.x; r->thread[1] = threadIdx.y; r->thread[2] = threadIdx.z;
  r->payload[0] = w0;
  r->payload[1] = w1;
  r->payload[2] = w2;
  __threadfence_system();
}

// The same, called: a kernel reports from many places, each a few instructions where the record is written once.
static __device__ __attribute__((noinline, cold)) void td_report_words(unsigned int kind, unsigned int site,
                                                                  unsigned long long w0, unsigned long long w1,
                                                                  unsigned long long w2, bool preferred) {
  td_write_record(kind, site, w0, w1, w2, preferred);
}

// A record whose payload is `p`, a family's payload struct: packed into words here, inlined, so nothing of
// it is kept in the caller's frame (the GPU would give it local memory). `written_here`: the record written
// inline, for a caller that is itself a called function (a cold one): a call inside a call makes every
// caller of the outer one keep the registers of both (measured with ptxas: the block reduction's 89 of 92).
template <class Payload>
static __device__ __forceinline__ void td_report_payload(unsigned int kind, unsigned int site, const Payload& p,
                                                         bool preferred = false, bool written_here = false) {
  static_assert(sizeof(Payload) <= TD_PAYLOAD_BYTES, "a record's payload is at most TD_PAYLOAD_BYTES bytes");
  unsigned long long w[TD_PAYLOAD_BYTES / 8] = {0, 0, 0};
  __builtin_memcpy(w, &p, sizeof(Payload));
  if (written_here)
    td_write_record(kind, site, w[0], w[1], w[2], preferred);
  else
    td_report_words(kind, site, w[0], w[1], w[2], preferred);
}

static __device__ __forceinline__ unsigned int td_block_linear() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

static __device__ __forceinline__ unsigned int td_thread_linear() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Words other threads exchange: read past the GPU's L1, which atomics bypass.
static __device__ __forceinline__ unsigned long long td_load(const unsigned long long* p) {
  return *(const volatile unsigned long long*)p;
}

// Buffer argument `arg`'s instance of per-buffer region `id`; null when there is none.
static __device__ __forceinline__ void* td_buffer_region(unsigned int id, unsigned int arg) {
  return (void*)__td_ctl.buffers[arg].region[__td_ctl.regions[id].slot];
}

// Does this launch keep region `id` in the block's shared memory (a GPU's shared tail)? Folds: the control
// block is baked into the module.
static __device__ __forceinline__ bool td_region_in_shared(unsigned int id) {
  return (__td_ctl.regions[id].flags & TD_REGION_IN_SHARED) != 0;
}

// The bytes of an instance of region `id` (block, thread or grid scope).
static __device__ __forceinline__ unsigned long long td_region_bytes(unsigned int id) {
  return __td_ctl.regions[id].bytes;
}

extern "C" {

// A thread about to stop the kernel (a failed assert, __trap): its record names it before the GPU traps
// or the CPU executor ends the grid.
__device__ void __td_kernel_stop(unsigned int kind, unsigned int site) { td_report_words(kind, site, 0, 0, 0, false); }

// An access through a pointer the pass could not attribute: no check, but the site is noted so a fault
// it causes can be reported at the right line.
__device__ void __td_unchecked_access(unsigned int site) { __td_mark_site(site); }

}  // extern "C"

#include "td_contain.cuh"
