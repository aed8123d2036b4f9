// CUDA's warp reductions (sm_80's redux.sync): each thread records its warp's sum of thread indices, the
// largest of (t * 7) % 13 over the warp as unsigned, and the smallest of 5 - t as signed.
__global__ void reduce(int* sum, unsigned int* largest, int* smallest) {
  int t = threadIdx.x;
  sum[t] = __reduce_add_sync(0xffffffff, t);
  largest[t] = __reduce_max_sync(0xffffffff, (unsigned int)(t * 7 % 13));
  smallest[t] = __reduce_min_sync(0xffffffff, 5 - t);
}
