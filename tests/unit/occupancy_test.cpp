// Occupancy against calculations done by hand from the profiles (the CUDA occupancy calculator's rules on
// NVIDIA; the per-CU totals on MetaX, with what is not known left out and named).
#include <gtest/gtest.h>

#include "frontend/profile.h"
#include "frontend/occupancy.h"

using namespace td;

TEST(Occupancy, H200SharedMemoryAndRegistersBothLimit) {
  // 256 threads = 8 warps; 48 KiB of shared memory; 64 registers a thread.
  Occupancy o = occupancyOf({256, 49152, 64}, loadProfile("nvidia-h200"));
  // warps: 64 / 8 = 8 blocks; blocks: 32; shared: 233472 / roundup(49152 + 1024, 128) = 233472 / 50176 = 4;
  // registers: 64 * 32 = 2048 a warp, 65536 / 2048 = 32 warps = 4 blocks.
  ASSERT_EQ(o.limits.size(), 4u);
  EXPECT_EQ(o.limits[0].blocks, 8);
  EXPECT_EQ(o.limits[1].blocks, 32);
  EXPECT_EQ(o.limits[2].blocks, 4);
  EXPECT_EQ(o.limits[3].blocks, 4);
  EXPECT_EQ(o.blocksPerSm, 4);
  EXPECT_EQ(o.limiting, (std::vector<std::string>{"shared memory", "registers"}));
  EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
  // five blocks: 233472 / 5 = 46694 -> 46592 in units of 128, less the 1024 reserved; 65536 / 8 / 5 = 1638
  // registers a warp -> 1536 in units of 256 = 48 a thread.
  EXPECT_EQ(o.toRaise, "5 blocks per SM need at most 45568 bytes of shared memory a block and at most 48 registers a thread");
  EXPECT_TRUE(o.notCounted.empty());
}

TEST(Occupancy, MetaxCountsWhatItKnowsAndNamesTheRest) {
  // 256 threads = 4 waves of 64; 48 KiB of shared memory: one block per CU of 64 KiB.
  Occupancy o = occupancyOf({256, 49152, 0}, loadProfile("metax-c500"));
  EXPECT_EQ(o.blocksPerSm, 1);
  EXPECT_EQ(o.limiting, (std::vector<std::string>{"shared memory"}));
  EXPECT_EQ(o.maxWarps, 32);
  EXPECT_DOUBLE_EQ(o.occupancy, 4.0 / 32.0);
  EXPECT_EQ(o.toRaise, "2 blocks per CU need at most 32768 bytes of shared memory a block");
  EXPECT_EQ(o.notCounted.size(), 2u);  // blocks per CU, registers
}

TEST(Occupancy, ThreadsAloneLimitASmallKernel) {
  // 1024 threads, no shared memory, 32 registers on the A100: warps 64 / 32 = 2; shared (the reserve only)
  // 167936 / 1024 = 164; registers 32 * 32 = 1024 a warp, 64 warps = 2 blocks.
  Occupancy o = occupancyOf({1024, 0, 32}, loadProfile("nvidia-a100"));
  EXPECT_EQ(o.blocksPerSm, 2);
  EXPECT_EQ(o.limiting, (std::vector<std::string>{"warps", "registers"}));
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
}
