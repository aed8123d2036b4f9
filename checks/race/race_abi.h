// Families "race" and "init": what their pass, device source and decoders share. Plain C.
#ifndef TD_RACE_ABI_H
#define TD_RACE_ABI_H

// The `kind` argument of __td_race_shared and __td_race_global: the access in the low two bits, then
// which checks it takes part in.
#define TD_ACCESS_READ 0u
#define TD_ACCESS_WRITE 1u
#define TD_ACCESS_ATOMIC 2u       // a read-modify-write
#define TD_ACCESS_ATOMIC_READ 3u  // an atomic load (ld.relaxed, LLVM's load atomic): no race with atomics
#define TD_ACCESS_MASK 3u
#define TD_CHECK_INIT 4u   // uninitialised reads (family "init")
#define TD_CHECK_RACE 8u   // races (family "race")
#define TD_CHECKS (TD_CHECK_INIT | TD_CHECK_RACE)
#define TD_ACCESS_VALUE 16u  // a write whose bytes the hook's value_lo/value_hi carry (plain stores of <= 16 bytes)

// TD_REGION_SHARED_WRITTEN: per TD_WRITTEN_CHUNK bytes of a block's shared window, an unsigned int counting
// the chunk's bytes written in this launch (the init check's summary of the history's written bytes).
#define TD_WRITTEN_CHUNK 256u
#define TD_WRITTEN_CHUNK_SHIFT 6u  // log2(TD_WRITTEN_CHUNK / 4): the region's word_shift

// TD_REGION_SHARED_HISTORY and TD_REGION_BUFFER_HISTORY: one granule per 4 bytes of a block's shared window
// (zeroed when the block starts) and of every global buffer (zeroed at launch): the last write and the
// last read, each a 64-bit tag (thread, site, block, bytes, atomic, barrier count: race_runtime.cu)
// exchanged as one word, so the GPU's concurrent updates never pair one access's thread with another's
// site or epoch; beside them each access's warp and other-sync counts, and the bytes any thread wrote in
// this launch.
// History tags (td_granule.w/.r; the host reads the last writer of an output element from them: diff): bits 0-10 the thread's linear id + 1 (0: none), 11-14 the bytes of the
// granule it accessed, 15 atomic, 16-31 the site (0xffff: one past 65534), 32-43 the linear block id
// modulo 4096 (blocks that alias only hide races), 44-63 the thread's full-block barrier count.
#define TD_TAG_THREAD(t) ((unsigned int)((t) & 0x7ffu))
#define TD_TAG_BYTES(t) ((unsigned int)((t) >> 11) & 0xfu)
#define TD_TAG_ATOMIC (1ull << 15)
#define TD_TAG_SITE(t) ((unsigned int)((t) >> 16) & 0xffffu)
#define TD_TAG_BLOCK_SHIFT 32
#define TD_TAG_BLOCK_MASK (0xfffull << TD_TAG_BLOCK_SHIFT)
#define TD_TAG_EPOCH_SHIFT 44
// A last-write tag while its writer replaces it and its counts (thread 2047, no bytes: no access conflicts
// with it; no block has that many threads).
#define TD_TAG_BUSY 0x7ffull

typedef struct td_granule {
  unsigned long long w, r;
  unsigned int w_aux, r_aux;  // low 16 bits: the thread's __syncwarp count; high 16: the block's other-sync count
  // With `value` one 8-byte word, exchanged as one (race_runtime.cu): bits 0-3 the granule's bytes written
  // so far, 4-7 those whose last write's value `value` holds (a write the pass could not see the value of
  // clears them), 8-30 who wrote last (a tag's thread and block).
  unsigned int written;
  unsigned int value;         // the bytes the last writes stored: an unordered write of the same bytes is benign
} __attribute__((aligned(16))) td_granule;  // a reader loads it as two 16-byte words

// The payload of race records (TD_KIND_*_RAW, _WAR, _WAW) and of uninitialised reads (TD_KIND_*_UNINIT,
// which use `offset` only).
typedef struct td_race_payload {
  long long offset;             // byte offset in the buffer, or in the shared array (the window when unknown)
  unsigned int partner_thread;  // the other access's thread: its linear id in its block
  unsigned int partner_site;    // and its site; ~0u when the history could not keep it (past 65534)
  unsigned int partner_block;   // and its block's linear id, modulo 4096 (the history tag keeps 12 bits)
  unsigned int hazard;          // TD_KIND_*_SAME_VALUE: 1 write-after-read, 2 write-after-write; else 0
} td_race_payload;

#endif
