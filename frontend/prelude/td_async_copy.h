// Included by both preludes (td_prelude.h, and td_sdk_builtins.h against the CUDA SDK).
#pragma once

// Where the CPU executor lands an asynchronous copy (cp.async, MACA's memcpy_async) when its thread waits
// for it: the copied bytes stored by that thread at that moment, so the checks see the write where it
// happens (instrument/ptx_catalogue.h, kAsyncCopyLanding). Never called on a GPU.
extern "C" __device__ __attribute__((used, noinline, weak)) void tile_doctor_async_copy_lands(void* dst, unsigned long long lo,
                                                                                   unsigned long long hi, unsigned bytes) {
  if (bytes == 16) {
    ((unsigned long long*)dst)[0] = lo;
    ((unsigned long long*)dst)[1] = hi;
  } else if (bytes == 8) {
    *(unsigned long long*)dst = lo;
  } else {  // 4: the executor lands no other size here
    *(unsigned int*)dst = (unsigned int)lo;
  }
}
