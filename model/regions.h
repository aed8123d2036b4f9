// The regions of device state the check families ask for (abi.h, td_region), numbered once for all of
// them: a family's device source reaches its state through these ids, its descriptor (checks/*/..._family.cpp)
// says how large each is and where it lives. Keep this file plain C: the device runtime includes it.
#ifndef TD_REGIONS_H
#define TD_REGIONS_H

// The shared tail keeps regions in id order: the first four and TD_REGION_SHARED_WRITTEN prefer it.
#define TD_REGION_BARRIER_SLOTS 0  // sync: per block, its barrier generations and exited lanes (td_block_checks)
#define TD_REGION_BLOCK_SYNC 1     // race, init, sync: per block, its count of other synchronisation
#define TD_REGION_THREAD_SYNC 2    // race, init, sync: per thread, full-block barriers and __syncwarps passed
#define TD_REGION_SHARED_HISTORY 3  // race, init: per block, one td_granule per 4 bytes of its shared window
#define TD_REGION_BUFFER_HISTORY 4  // race, init: per buffer, one td_granule per 4 bytes
#define TD_REGION_WAIT_BOARD 5     // sync: per thread, where it waits (GPU hang reports)
// 6: a test's family (tests/families/store_count)
#define TD_REGION_NUM_SHARED 7     // numerics: per block, a td_num_granule per 2 bytes of its shared window
#define TD_REGION_NUM_BUFFER 8     // numerics: per buffer, a td_num_granule per 2 bytes
#define TD_REGION_NUM_SITES 9      // numerics: per store site, its drift (td_num_site), read back
#define TD_REGION_NUM_LANES 10     // numerics: per thread, its matrix fragments' shadows during an mma
#define TD_REGION_SHARED_WRITTEN 11  // init: per block, how many bytes of each 256 of its shared window were written

#endif
