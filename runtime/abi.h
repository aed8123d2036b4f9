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
#define TD_KIND_BARRIER_DIVERGENCE 7  // CPU scheduler: offset = threads that arrived; addr = other site << 32 |
                                      // other thread (other site ~0: that thread exited while they waited)
#define TD_KIND_COUNT 8

// Object classes an access is attributed to.
#define TD_OBJ_GLOBAL_ARG 0   // object = kernel argument index
#define TD_OBJ_SHARED 1       // object = shared object id in the site table

typedef struct td_buffer {
  unsigned long long base;   // device address of the buffer bound to this argument
  unsigned long long bytes;  // its size; 0 for a scalar argument
} td_buffer;

typedef struct td_record {
  unsigned int kind;
  unsigned int site;
  unsigned int block[3];
  unsigned int thread[3];
  long long offset;          // byte offset of the access from the start of its object
  unsigned long long addr;   // the address itself
} td_record;

typedef struct td_channel {
  unsigned int capacity;     // records that fit
  unsigned int cursor;       // records written or attempted (atomic); > capacity means dropped
  unsigned int pad[2];
  td_record records[1];      // capacity entries follow
} td_channel;

// Race shadow: one per 4 bytes of the block's shared window, zeroed when the block starts: the last
// write and the last read, each a tag (thread, bytes, atomic: td_runtime.cu) with the block's barrier
// epoch and the warp's __syncwarp epoch at the access.
typedef struct td_granule {
  unsigned int w_site, w_thread, w_block_epoch, w_warp_epoch;
  unsigned int r_site, r_thread, r_block_epoch, r_warp_epoch;
} td_granule;

typedef struct td_ctl {
  unsigned int abi_version;
  unsigned int nbuffers;
  unsigned int nsites;
  unsigned int dynamic_shared_bytes;
  td_channel* channel;
  unsigned int* hits;        // nsites * TD_KIND_COUNT counters (atomic)
  td_buffer buffers[TD_MAX_BUFFERS];
} td_ctl;

#endif
