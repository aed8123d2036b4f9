// tile-doctor hook ABI, version 1.
// Shared by the device runtime (compiled for the GPU and, retargeted, for the CPU) and the host collector.
// Passes emit calls to the __td_* hooks declared in td_runtime.cu; the hooks write fixed-size records
// into a channel the executor provides through the __td_ctl control block. Keep this file plain C.
#ifndef TD_ABI_H
#define TD_ABI_H

#define TD_ABI_VERSION 1
#define TD_MAX_BUFFERS 64
#define TD_RECORDS_PER_SITE 4  // records kept per (site, kind); all hits are still counted

// Record kinds. A site's hit counters are indexed by site * TD_KIND_COUNT + kind.
#define TD_KIND_GLOBAL_OOB 0
#define TD_KIND_SHARED_OOB 1
#define TD_KIND_MISALIGNED 2
#define TD_KIND_SHARED_RAW 3      // races: offset = window offset, addr = partner site << 32 | partner thread
#define TD_KIND_SHARED_WAR 4
#define TD_KIND_SHARED_WAW 5
#define TD_KIND_SHARED_UNINIT 6   // a read of shared bytes no thread wrote in this launch
#define TD_KIND_BARRIER_DIVERGENCE 7  // addr = other site << 32 | other thread; other site TD_SITE_EXITED: the other
                                      // thread exited while this one waited, TD_SITE_WAITING: this thread exited
                                      // while the other waited here
#define TD_KIND_GLOBAL_RAW 8      // global races: offset = byte offset in the buffer, addr as for shared races,
#define TD_KIND_GLOBAL_WAR 9      // other_block = the partner's linear block id
#define TD_KIND_GLOBAL_WAW 10
#define TD_KIND_GLOBAL_UNINIT 11  // a read of bytes of an init = "uninit" buffer no thread wrote in this launch
#define TD_KIND_WARP_MASK 12      // offset = TD_MASK_* (what is wrong), addr = the mask
#define TD_KIND_DEVICE_ASSERT 13  // a thread failed a device assert (the site names it); the kernel stops
#define TD_KIND_TRAP 14           // a thread reached __trap(); the kernel stops
#define TD_KIND_COUNT 15
#define TD_MASK_MISSES_SELF 1     // the calling lane is not in its own mask
#define TD_MASK_NAMES_EXITED 2    // the mask names lanes that have exited
#define TD_MASK_32_ON_WAVE64 3    // a literal 0xffffffff on a 64-lane wave: half the wave
#define TD_SITE_EXITED 0xffffffffu
#define TD_SITE_WAITING 0xfffffffeu

// Object classes an access is attributed to.
#define TD_OBJ_GLOBAL_ARG 0   // object = kernel argument index
#define TD_OBJ_SHARED 1       // object = shared object id in the site table

#define TD_BUFFER_UNINIT 1u  // td_buffer.flags: the manifest says init = "uninit"

// The addr of a race or barrier-divergence record: the other access's site and its thread (linear id in
// its block), written by the device runtime and read by the decoders.
#define TD_PARTNER(site, thread) ((((unsigned long long)(site)) << 32) | (unsigned int)(thread))
#define TD_PARTNER_SITE(addr) ((unsigned int)((addr) >> 32))
#define TD_PARTNER_THREAD(addr) ((unsigned int)((addr) & 0xffffffffu))

// The `kind` argument of the race hooks (__td_race_shared, __td_race_global): the access in the low two
// bits, then which checks it takes part in.
#define TD_ACCESS_READ 0u
#define TD_ACCESS_WRITE 1u
#define TD_ACCESS_ATOMIC 2u
#define TD_ACCESS_MASK 3u
#define TD_CHECK_INIT 4u   // uninitialised reads (family "init")
#define TD_CHECK_RACE 8u   // races (family "race")
#define TD_CHECKS (TD_CHECK_INIT | TD_CHECK_RACE)

typedef struct td_buffer {
  unsigned long long base;   // device address of the buffer bound to this argument
  unsigned long long bytes;  // its size; 0 for a scalar argument
  unsigned long long shadow; // race shadow (td_granule per 4 bytes), 0 when the race/init checks are off
  unsigned int flags;
  unsigned int pad;
} td_buffer;

typedef struct td_record {
  unsigned int kind;
  unsigned int site;
  unsigned int block[3];
  unsigned int thread[3];
  long long offset;          // byte offset of the access from the start of its object
  unsigned long long addr;   // the address itself
  unsigned int other_block;  // races: the partner access's linear block id
  unsigned int pad;
} td_record;

typedef struct td_channel {
  unsigned int capacity;     // records that fit
  unsigned int cursor;       // records written or attempted (atomic); > capacity means dropped
  unsigned int pad[2];
  td_record records[1];      // capacity entries follow
} td_channel;

// Race shadow: one per 4 bytes of a block's shared window (zeroed when the block starts) and of every
// global buffer (zeroed at launch): the last write and the last read, each a 64-bit tag (thread, site,
// block, bytes, atomic, barrier count: td_runtime.cu) exchanged as one word, so the GPU's concurrent
// updates never pair one access's thread with another's site or epoch; beside them each access's warp
// and other-sync counts, and the bytes any thread wrote in this launch.
typedef struct td_granule {
  unsigned long long w, r;
  unsigned int w_aux, r_aux;  // low 16 bits: the thread's __syncwarp count; high 16: the block's other-sync count
  unsigned int written;       // bits 0-3: the granule's bytes written so far
  unsigned int pad;
} __attribute__((aligned(16))) td_granule;  // a reader loads it as two 16-byte words

// Barrier checks: per block, TD_BARRIER_SLOTS generations of its full-block barrier (key = generation + 1
// << 32 | site + 1, and the first thread there), then one slot for the first thread that exited; and
// per warp the lanes that exited.
#define TD_BARRIER_SLOTS 8
#define TD_MAX_WARPS 32
typedef struct td_barrier_slot {
  unsigned long long key;
  unsigned int thread, pad;
} td_barrier_slot;
typedef struct td_block_checks {
  td_barrier_slot slots[TD_BARRIER_SLOTS + 1];
  unsigned long long exited_lanes[TD_MAX_WARPS];
} td_block_checks;

// GPU hang reports: one word per thread of the grid saying where it is at the barriers (td_runtime.cu
// writes it; the CUDA executor reads it back when a launch runs past its timeout). 0: running (or not
// started); site + 1: waiting at that barrier; TD_WAIT_ARRIVED | site + 1: last passed a barrier there
// without waiting (bar.arrive); TD_WAIT_EXITED set: returned.
#define TD_WAIT_ARRIVED 0x40000000u
#define TD_WAIT_EXITED 0x80000000u

// A block's race state in its own shared memory (the CUDA executor, where it fits): the tail, launched
// after the kernel's dynamic array at TD_SHARED_TAIL_OFFSET of it: td_block_checks, the block's sync
// count in 16 bytes, two counters per thread rounded up to 16 bytes, then the granules.
#define TD_SHARED_TAIL_ALIGN 16u
#define TD_SHARED_TAIL_OFFSET(dynamic_bytes) (((dynamic_bytes) + TD_SHARED_TAIL_ALIGN - 1) / TD_SHARED_TAIL_ALIGN * TD_SHARED_TAIL_ALIGN)
#define TD_TAIL_SYNC_OFFSET sizeof(td_block_checks)
#define TD_TAIL_EPOCHS_OFFSET (TD_TAIL_SYNC_OFFSET + 16)
#define TD_TAIL_GRANULES_OFFSET(threads) (TD_TAIL_EPOCHS_OFFSET + ((threads) * 8 + 15) / 16 * 16)
#define TD_TAIL_BYTES(threads, granules) (TD_TAIL_GRANULES_OFFSET(threads) + (granules) * sizeof(td_granule))

typedef struct td_ctl {
  unsigned int abi_version;
  unsigned int nbuffers;
  unsigned int nsites;
  unsigned int dynamic_shared_bytes;
  td_channel* channel;
  unsigned int* hits;        // nsites * TD_KIND_COUNT counters (atomic)
  // The CUDA executor's race state, one slice per block of the grid (the CPU executor keeps its own per
  // running block): shared shadows of shadow_granules each, two counters per thread, one per block.
  unsigned long long race_shadow;
  unsigned long long thread_epochs;
  unsigned long long block_sync;
  unsigned long long block_checks;   // one td_block_checks per block
  unsigned int shadow_granules;
  // Non-zero: the block's shared shadow, its td_block_checks and its sync count live in the block's own
  // shared memory instead, this many bytes launched after the kernel's dynamic shared array (at
  // TD_SHARED_TAIL_OFFSET of it), zeroed by the block when it starts.
  unsigned int shared_tail_bytes;
  unsigned long long wait_board;  // the GPU's hang-report words, 0 where there are none (the CPU)
  td_buffer buffers[TD_MAX_BUFFERS];
} td_ctl;

#endif
