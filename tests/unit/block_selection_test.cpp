// --blocks: boundary blocks plus a seeded sample, or a list; the blocks that ran compute what a full run
// computes, and the report says how they were chosen.
#include <gtest/gtest.h>
#include <set>

#include "driver/block_selection.h"
#include "frontend/input_error.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

TEST(BlockSelection, SampleHasEveryBoundaryBlockAndIsReproducible) {
  BlockSelection s = selectBlocks("sample:5", {8, 6, 1}, 3);
  ASSERT_FALSE(s.all);
  std::set<uint64_t> got(s.blocks.begin(), s.blocks.end());
  for (int x = 0; x < 8; ++x)
    for (int y = 0; y < 6; ++y)
      if (x == 0 || x == 7 || y == 0 || y == 5) EXPECT_TRUE(got.count(y * 8 + x)) << x << "," << y;
  EXPECT_EQ(s.blocks.size(), 24u + 5u);  // 2*8 + 2*4 boundary blocks, 5 drawn
  EXPECT_EQ(selectBlocks("sample:5", {8, 6, 1}, 3).blocks, s.blocks);
  EXPECT_NE(selectBlocks("sample:5", {8, 6, 1}, 4).blocks, s.blocks);
  EXPECT_TRUE(selectBlocks("sample:100", {8, 6, 1}, 0).all) << "a sample covering the grid is the whole grid";
}

TEST(BlockSelection, ListsByIndexOrCoordinates) {
  BlockSelection s = selectBlocks("3,1.2.0", {4, 4, 1}, 0);
  EXPECT_EQ(s.blocks, (std::vector<uint64_t>{3, 9}));
  EXPECT_THROW(selectBlocks("16", {4, 4, 1}, 0), InputError);
  EXPECT_THROW(selectBlocks("4.0.0", {4, 4, 1}, 0), InputError);
  EXPECT_THROW(selectBlocks("sample:x", {4, 4, 1}, 0), InputError);
}

TEST(BlockSelection, SampledGemmComputesTheBlocksThatRan) {
  CheckRequest req;
  req.bundlePath = example("gemm");
  req.params = {{"M", "512"}, {"N", "512"}, {"K", "64"}};
  req.blocks = "sample:3";
  req.launch.jobs = 2;
  CheckResult r = runCheck(req);
  EXPECT_TRUE(r.report.findings.empty());
  EXPECT_EQ(r.report.blocksTotal, 64u);
  EXPECT_EQ(r.report.blocksRun, 28u + 3u);
  EXPECT_NE(r.report.blocksNote.find("28 boundary + 3 random"), std::string::npos) << r.report.blocksNote;
  auto A = values(r, "A"), B = values(r, "B"), C = values(r, "C");
  BlockSelection sel = selectBlocks("sample:3", {8, 8, 1}, 0);
  for (uint64_t blk : sel.blocks) {  // every output element of the blocks that ran is right
    int bx = blk % 8, by = blk / 8;
    for (int i = by * 64; i < by * 64 + 64; i += 13)
      for (int j = bx * 64; j < bx * 64 + 64; j += 7) {
        double ref = 0;
        for (int k = 0; k < 64; ++k) ref += A[i * 64 + k] * B[k * 512 + j];
        ASSERT_NEAR(C[i * 512 + j], ref, 1e-3) << blk;
      }
  }
}
