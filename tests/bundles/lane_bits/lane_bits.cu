// Each lane sets its bit in its warp's word, with the lane mask built in 32 bits as CUDA code does:
// correct with 32-lane warps; on a 64-lane wave lanes 32-63 shift 1u by 32-63.
extern "C" __global__ void lane_bits(unsigned int* __restrict__ words) {
  unsigned int lane = threadIdx.x % warpSize;
  unsigned int bit = 1u << lane;
  atomicOr(&words[threadIdx.x / warpSize], bit);
}
