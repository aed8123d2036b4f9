// Slow is not hung: a correct kernel stopped at --timeout while its blocks still progress is
// kernel-still-running (how far it got, what to do; exit 3), never kernel-hang; a block that spins among
// blocks that finish is still a hang, reported at its own loop.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

TEST(SlowRuns, ACorrectSlowKernelIsStillRunningNotHung) {
  CheckResult r = check(bundleFile("slow", "slow"), "nvidia-h200", {{"ROUNDS", "30000"}}, 2);
  EXPECT_EQ(find(r, "kernel-hang"), nullptr);
  const Finding* f = find(r, "kernel-still-running");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->fatal);
  EXPECT_EQ(r.report.exitCode(), 3);
  EXPECT_NE(f->title.find("of 64 blocks done"), std::string::npos) << f->title;
  EXPECT_LT(r.report.blocksRun, 64u);
  bool advice = false;
  for (const std::string& n : f->notes) advice |= n.find("--timeout") != std::string::npos;
  EXPECT_TRUE(advice) << "it says what to do";
}

TEST(SlowRuns, TheSameKernelWithTimeEnoughIsClean) {
  CheckResult r = check(bundleFile("slow", "slow"), "nvidia-h200", {{"ROUNDS", "200"}, {"BLOCKS", "8"}}, 60);
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
}

TEST(SlowRuns, OneSpinningBlockAmongFinishingOnesIsAHangAtItsLoop) {
  CheckResult r = check(bundleFile("slow", "slow_one_block_hangs"), "nvidia-h200", {{"ROUNDS", "30000"}}, 4);
  EXPECT_EQ(find(r, "kernel-still-running"), nullptr);
  const Finding* f = find(r, "kernel-hang");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->threads.empty());
  EXPECT_EQ(f->threads.front().block[0], 3u) << "the hung block, not one still finishing";
}
