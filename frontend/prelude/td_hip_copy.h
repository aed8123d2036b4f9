// The HIP stand-in's copies as MACA runs them. The stand-in lowers for gfx950, the one HIP target TileLang
// software-pipelines (multi-buffered stages, tl::cp_async_gs/commit/wait as its CUDA pipeline writes them,
// which tilelang-metax's pipeline mirrors). tl_templates/hip/copy.h makes those copies synchronous stores
// and its wait an AMD `s_waitcnt`; tile-doctor serves that header with its four functions renamed out of the
// way (hip_dialect.cpp) and these in their place, written from tilelang-metax's tl_templates/maca/copy.h as
// ../shared/research/metax-tilelang.md sec. 1.5 quotes it:
//   cp_async_gs<N>     -> maca_cp_async_zfill<N>: an asynchronous N-byte copy
//   cp_async_commit()  -> nothing (MACA has no commit groups)
//   cp_async_wait<N>() -> maca_cp_async_wait<N>(), at most N copies outstanding, then __syncthreadshared()
#pragma once
#include <td_counted_copy.h>

namespace tl {
template <int N> __device__ inline void cp_async_gs(void* lds_base_ptr, void const* global_base_ptr) {
  __td_counted_copy<N>(lds_base_ptr, global_base_ptr, true, N);
}
template <int N>
__device__ inline void cp_async_gs_conditional(void* lds_base_ptr, void const* global_base_ptr, bool cond) {
  __td_counted_copy<N>(lds_base_ptr, global_base_ptr, true, cond ? N : 0);
}
__device__ inline void cp_async_commit() {}
template <int N = 0> __device__ inline void cp_async_wait() {
  __td_counted_copy_wait(N);
  __syncthreads();
}
}  // namespace tl
