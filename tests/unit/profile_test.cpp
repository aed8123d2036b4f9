// tile-doctor profile: a launch's resources equal what the kernel declares, and its occupancy on each
// target matches a calculation by hand from the profiles; registers come from NVIDIA's assembler where
// it is installed, and say so.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "profiler/profile_report.h"
#include "profiler/ptxas_usage.h"
#include "test_support.h"

using namespace td;

TEST(Profile, TheExampleGemmOnMetaxAndNvidia) {
  ProfileReport r = buildProfileReport(test::example("gemm"), {}, {"nvidia-h200", "metax-c500"});
  // gemm.cu: __shared__ half As[BM][BK], Bs[BK][BN] with BM = BN = 64, BK = 32: 4096 bytes each.
  ASSERT_EQ(r.launch.staticShared.size(), 2u);
  EXPECT_EQ(r.launch.staticShared[0], (std::pair<std::string, int64_t>{"As", 4096}));
  EXPECT_EQ(r.launch.staticShared[1], (std::pair<std::string, int64_t>{"Bs", 4096}));
  EXPECT_EQ(r.launch.staticSharedBytes, 8192);
  EXPECT_EQ(r.launch.dynamicShared, 0);
  EXPECT_EQ(r.launch.globalBytes, 256 * 256 * (2 + 2 + 4));
  ASSERT_EQ(r.targets.size(), 2u);
  // metax-c500, 256 threads = 4 waves of 64: 2048 / 256 = 8 blocks by threads; 65536 / 8192 = 8 by shared
  // memory; registers and blocks per CU not known.
  const Occupancy& metax = r.targets[1].occupancy;
  EXPECT_EQ(metax.blocksPerSm, 8);
  EXPECT_EQ(metax.limiting, (std::vector<std::string>{"warps", "shared memory"}));
  EXPECT_DOUBLE_EQ(metax.occupancy, 1.0);
  EXPECT_EQ(r.targets[1].resources.registersPerThread, 0);  // NVIDIA's assembler does not speak for MetaX
  // nvidia-h200: 8 warps a block: 8 blocks by warps; shared 233472 / (8192 + 1024) = 25; 32 by blocks;
  // registers (when ptxas is here) R a thread -> 65536 / roundup(32 R, 256) / 8.
  const TargetView& h200 = r.targets[0];
  if (findPtxas().empty()) {
    EXPECT_FALSE(r.launch.registers);
    EXPECT_EQ(h200.occupancy.blocksPerSm, 8);
    return;
  }
  ASSERT_TRUE(r.launch.registers) << r.launch.registersWhy;
  int64_t regs = r.launch.registers->registers;
  EXPECT_GT(regs, 0);
  EXPECT_NE(r.launch.registers->source.find("ptxas"), std::string::npos);
  EXPECT_NE(r.launch.registers->source.find("sm_90"), std::string::npos);
  int64_t perWarp = (regs * 32 + 255) / 256 * 256;
  int64_t byRegisters = 65536 / perWarp / 8;
  EXPECT_EQ(h200.occupancy.blocksPerSm, std::min<int64_t>({8, 25, 32, byRegisters}));
}

TEST(Profile, ATileOverMetaxSharedMemoryIsOverTheLimitAndHalvingAParameterHelps) {
  // tile_too_large: STAGES * (128 * 64 + 64 * 128) * 2 = 98304 bytes of dynamic shared memory at STAGES 3.
  ProfileReport r = buildProfileReport(test::example("tile_too_large"), {}, {"metax-c500", "nvidia-h200"});
  EXPECT_EQ(r.launch.dynamicShared, 98304);
  const TargetView& metax = r.targets[0];
  EXPECT_EQ(metax.occupancy.blocksPerSm, 0);
  ASSERT_EQ(metax.overLimit.size(), 1u);
  EXPECT_NE(metax.overLimit[0].find("98304"), std::string::npos);
  // On the H200 one block fits (98304 + 1024 of 233472: 2 blocks); halving STAGES would fit a third.
  const TargetView& h200 = r.targets[1];
  EXPECT_EQ(h200.occupancy.limits[2].blocks, 233472 / (98304 + 1024));
  bool stages = false;
  for (const std::string& s : h200.suggestions) stages = stages || s.find("halving STAGES (3 -> 1)") != std::string::npos;
  EXPECT_TRUE(stages) << fmt::format("{}", fmt::join(h200.suggestions, "; "));
}

TEST(Profile, PtxasVerboseIsReadForTheEntryAsked) {
  std::string text =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
      "ptxas info    : Function properties for other\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function '_Z4gemmPf' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z4gemmPf\n"
      "    16 bytes stack frame, 24 bytes spill stores, 20 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 8192 bytes smem, 368 bytes cmem[0]\n";
  std::optional<PtxasUsage> u = parsePtxasVerbose(text, "_Z4gemmPf");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->registers, 255);
  EXPECT_EQ(u->stackFrame, 16);
  EXPECT_EQ(u->spillStores, 24);
  EXPECT_EQ(u->spillLoads, 20);
  EXPECT_FALSE(parsePtxasVerbose(text, "absent"));
}
