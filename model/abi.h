// tile-doctor hook ABI, version 1.
// Shared by the device runtime (compiled for the GPU and, retargeted, for the CPU) and the host collector.
// Passes emit calls to the __td_* hooks of the device runtime (td_core.cuh, checks/*/..._runtime.cu); the hooks write fixed-size records
// into a channel the executor provides through the __td_ctl control block. Keep this file plain C.
#ifndef TD_ABI_H
#define TD_ABI_H

#define TD_ABI_VERSION 1
#define TD_MAX_BUFFERS 64
#define TD_RECORDS_PER_SITE 4  // records kept per (site, kind); all hits are still counted
#define TD_HITS_EXTRA_KEPT 0x80000000u  // a hit counter's top bit: its one preferred record past the four is kept

// Record kinds. A site's hit counters are indexed by site * TD_KIND_COUNT + kind.
#define TD_KIND_GLOBAL_OOB 0      // td_access_payload (checks/bounds/bounds_abi.h)
#define TD_KIND_SHARED_OOB 1
#define TD_KIND_MISALIGNED 2
// Each kind's payload is a struct of the family that writes it (checks/*/..._abi.h), named beside it here.
#define TD_KIND_SHARED_RAW 3      // td_race_payload (races and uninitialised reads)
#define TD_KIND_SHARED_WAR 4
#define TD_KIND_SHARED_WAW 5
#define TD_KIND_SHARED_UNINIT 6   // a read of shared bytes no thread wrote in this launch
#define TD_KIND_BARRIER_DIVERGENCE 7  // td_barrier_payload (checks/sync/sync_abi.h)
#define TD_KIND_GLOBAL_RAW 8      // td_race_payload
#define TD_KIND_GLOBAL_WAR 9
#define TD_KIND_GLOBAL_WAW 10
#define TD_KIND_GLOBAL_UNINIT 11  // a read of bytes of an init = "uninit" buffer no thread wrote in this launch
#define TD_KIND_WARP_MASK 12      // td_mask_payload (checks/sync/sync_abi.h)
#define TD_KIND_DEVICE_ASSERT 13  // a thread failed a device assert (the site names it); the kernel stops. No payload
#define TD_KIND_TRAP 14           // a thread reached __trap(); the kernel stops. No payload
#define TD_KIND_FP_OVERFLOW 15    // td_num_payload (checks/numerics/numerics_abi.h): +-inf from finite operands
#define TD_KIND_FP_INVALID 16     // td_num_payload: NaN from finite operands
#define TD_KIND_SHARED_SAME_VALUE 17  // td_race_payload: an unordered write that stored the bytes already there
#define TD_KIND_GLOBAL_SAME_VALUE 18
#define TD_KIND_WILD_ACCESS 19    // td_wild_payload: an access outside all of the kernel's memory (containment,
                                  // td_contain.cuh), made whatever checks run; it was skipped
#define TD_KIND_COUNT 20

// Object classes an access is attributed to.
#define TD_OBJ_GLOBAL_ARG 0   // object = kernel argument index
#define TD_OBJ_SHARED 1       // object = shared object id in the site table

#define TD_BUFFER_UNINIT 1u  // td_buffer.flags: the manifest says init = "uninit"

// Device state a check family asks for (its regions, model/regions.h): the executor allocates each
// region by scope and zeroes it when the scope starts; the device runtime finds the calling thread's
// instance with the executor primitive __td_region(id), a buffer's with td_buffer_region (td_core.cuh).
#define TD_MAX_REGIONS 12
#define TD_BUFFER_REGIONS 2        // per-buffer regions at most (td_buffer.region)
#define TD_SCOPE_GRID 0            // one instance for the launch, zero at launch
#define TD_SCOPE_BLOCK 1           // one per block, zero when the block starts
#define TD_SCOPE_THREAD 2          // one per thread, zero when its block starts
#define TD_SCOPE_BUFFER 3          // one per buffer argument, zero at launch
#define TD_REGION_PRESENT 1u       // allocated for this launch (a region no enabled family needs is absent)
#define TD_REGION_PREFER_SHARED 2u // kept in the block's own shared memory where it fits (block and thread scope)
#define TD_REGION_HANG_READBACK 4u // says where threads wait: kept and read back when a launch is stopped for
                                   // time only by an executor that cannot see its waiting threads itself
#define TD_REGION_READ_BACK 8u     // grid (or, on request, buffer) scope: copied back to the host after the launch
#define TD_REGION_IN_SHARED 16u    // set by the executor: this launch keeps it at shared_offset of the tail
#define TD_REGION_PREFER_SHARED_IF_FREE 32u  // kept in the block's shared memory where that costs the SM no block
                                             // (block and thread scope; larger than the PREFER_SHARED ones)

typedef struct td_region {
  unsigned int scope, flags;
  // An instance's size: fixed_bytes, plus bytes_per_word per (4 << word_shift) bytes of the block's shared
  // window (block scope) or of the buffer (buffer scope), plus bytes_per_site per instrumentation site.
  unsigned int fixed_bytes, bytes_per_word, bytes_per_site;
  unsigned int slot;           // buffer scope: the index in td_buffer.region
  unsigned long long bytes;    // set by the executor: an instance's size (block, thread, grid scope)
  unsigned long long base;     // set by the executor: instance 0 in global memory (0: absent or in shared memory)
  unsigned int shared_offset;  // TD_REGION_IN_SHARED: its offset in the block's shared tail
  unsigned int word_shift;     // a "word" of bytes_per_word is 4 << word_shift bytes
} td_region;

typedef struct td_buffer {
  unsigned long long base;   // device address of the buffer bound to this argument
  unsigned long long bytes;  // its size; 0 for a scalar argument
  unsigned long long region[TD_BUFFER_REGIONS];  // the buffer's instance of each per-buffer region (0: none)
  unsigned int flags;
  unsigned int pad;
} td_buffer;

// A record: who (block, thread) and where (site) in a fixed header, then the kind's payload, a struct of
// at most TD_PAYLOAD_BYTES defined beside the family that writes it. The device runtime writes it
// (td_report_payload, td_core.cuh) and the decoder reads it (payloadOf, model/records.h) as that struct.
#define TD_PAYLOAD_BYTES 24
typedef struct td_record {
  unsigned int kind;
  unsigned int site;
  unsigned int block[3];
  unsigned int thread[3];
  unsigned long long payload[TD_PAYLOAD_BYTES / 8];
} td_record;

// TD_KIND_WILD_ACCESS: where the access went. `object` is the argument index of the nearest buffer, -1 when
// there is none, or TD_WILD_OWN_OBJECT when `offset` counts from the site's own object (a local array or a
// variable of the module, named by the site table).
#define TD_WILD_OWN_OBJECT (-2)
typedef struct td_wild_payload {
  unsigned long long addr;
  long long offset;   // from the start of `object`
  unsigned int size;  // bytes (0: a call through a pointer that is none of the module's functions)
  int object;
} td_wild_payload;

// A variable or function of the kernel's module, as containment's tables list them (instrument/containment_pass).
typedef struct td_object {
  const void* base;
  unsigned long long bytes;
} td_object;

typedef struct td_channel {
  unsigned int capacity;     // records that fit
  unsigned int cursor;       // records written or attempted (atomic); > capacity means dropped
  // Set by tile-doctor before the launch, compared after it: a kernel's wild store that reaches the
  // channel's header changes it (or the capacity), and the records are then not trusted.
  unsigned int seal[2];
  td_record records[1];      // capacity entries follow
} td_channel;

// The block's shared tail (the CUDA executor, where its regions fit): launched after the kernel's dynamic
// shared array, at TD_SHARED_TAIL_OFFSET of it, zeroed by the block when it starts.
#define TD_SHARED_TAIL_ALIGN 16u
#define TD_SHARED_TAIL_OFFSET(dynamic_bytes) (((dynamic_bytes) + TD_SHARED_TAIL_ALIGN - 1) / TD_SHARED_TAIL_ALIGN * TD_SHARED_TAIL_ALIGN)

typedef struct td_ctl {
  unsigned int abi_version;
  unsigned int nbuffers;
  unsigned int nsites;
  unsigned int dynamic_shared_bytes;
  td_channel* channel;
  unsigned int* hits;        // nsites * TD_KIND_COUNT counters (atomic)
  unsigned int shared_tail_bytes;  // non-zero: the regions kept in the block's shared tail take this many bytes
  // 1: a warp's lanes run together (the GPU), so a hook may combine their work with warp collectives; 0: one
  // thread at a time (the CPU), where each collective is a rendezvous of fibers and costs more than it saves.
  unsigned int lanes_concurrent;
  td_region regions[TD_MAX_REGIONS];
  td_buffer buffers[TD_MAX_BUFFERS];
} td_ctl;

#endif
