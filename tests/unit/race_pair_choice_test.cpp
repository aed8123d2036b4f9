// The pair a race finding names: where its racing pairs include two threads of different warps, the finding
// names such a pair (a pair within one warp can look like lockstep to a reader; two warps cannot).
#include <gtest/gtest.h>
#include <regex>

#include "test_support.h"

using namespace td;
using namespace td::test;

TEST(RacePairChoice, AMissingBarrierBetweenNeighboursNamesAPairInTwoWarps) {
  CheckResult r = check(bundle("race_pairs"));
  const Finding* war = find(r, "shared-race-war");
  ASSERT_TRUE(war) << (r.report.findings.empty() ? "no finding" : r.report.findings[0].title);
  EXPECT_EQ(war->count, 127u) << "every neighbour pair but the wrap-around one, counted";
  std::smatch m;
  ASSERT_TRUE(std::regex_search(war->title, m, std::regex(R"(by thread \((\d+),0,0\).* by thread \((\d+),0,0\))")))
      << war->title;
  int me = std::stoi(m[1]), partner = std::stoi(m[2]);
  EXPECT_EQ(me, partner + 1) << war->title;
  EXPECT_NE(me / 32, partner / 32) << "the first pairs were within warp 0; the one named crosses warps: " << war->title;
}
