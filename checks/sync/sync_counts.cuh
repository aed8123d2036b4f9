// The synchronisation counts the race, init and sync families share (regions TD_REGION_THREAD_SYNC and
// TD_REGION_BLOCK_SYNC): how many full-block barriers and full-warp __syncwarps this thread passed, and
// how much other synchronisation its block did.
#pragma once
#include "td_core.cuh"
#include "checks/sync/sync_abi.h"

static __device__ __forceinline__ unsigned int* td_thread_sync() {
  return (unsigned int*)__td_region(TD_REGION_THREAD_SYNC);
}
static __device__ __forceinline__ unsigned int* td_block_sync() {
  return (unsigned int*)__td_region(TD_REGION_BLOCK_SYNC);
}
