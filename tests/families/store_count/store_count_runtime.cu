// The toy family's device side: one counter per instrumentation site in a grid-scope region that comes
// back to the host after the launch.
#include "td_core.cuh"
#include "tests/families/store_count/store_count_abi.h"

extern "C" __device__ void __td_count_store(unsigned int site) {
  atomicAdd((unsigned int*)__td_region(TD_REGION_STORE_COUNTS) + site, 1u);
}
