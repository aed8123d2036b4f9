// --launches: which launches of a script are checked.
#include <gtest/gtest.h>

#include "driver/launch_policy.h"
#include "frontend/input_error.h"
#include "test_support.h"

namespace td {
namespace {

TEST(LaunchPolicy, FirstChecksEachKeyOnceAndNamesTheEarlierLaunch) {
  LaunchPolicy p = LaunchPolicy::parse("first");
  auto a = p.decide(1, "gemm 256");
  auto b = p.decide(2, "gemm 512");
  auto c = p.decide(3, "gemm 256");
  EXPECT_TRUE(a.check);
  EXPECT_TRUE(b.check);
  EXPECT_FALSE(c.check);
  EXPECT_EQ(c.sameAs, 1);
}

TEST(LaunchPolicy, AllChecksRepeats) {
  LaunchPolicy p = LaunchPolicy::parse("all");
  EXPECT_TRUE(p.decide(1, "k").check);
  EXPECT_TRUE(p.decide(2, "k").check);
}

TEST(LaunchPolicy, CountChecksTheScriptsFirstLaunchesWhateverTheirKey) {
  LaunchPolicy p = LaunchPolicy::parse("2");
  EXPECT_TRUE(p.decide(1, "a").check);
  EXPECT_TRUE(p.decide(2, "a").check);
  auto third = p.decide(3, "b");
  EXPECT_FALSE(third.check);
  EXPECT_EQ(third.sameAs, 0);
  EXPECT_EQ(p.decide(4, "a").sameAs, 1);
}

TEST(LaunchPolicy, AnythingElseIsBadInput) {
  for (const char* bad : {"", "some", "-1", "1e3", "99999999999999999999"})
    EXPECT_THROW(LaunchPolicy::parse(bad), InputError) << bad;
}

}  // namespace
}  // namespace td

TEST(LaunchPolicy, ABadValueIsBadInputForABundleToo) {
  td::test::Cli r = td::test::runCli("check " + td::test::bundle("transpose") + " --launches sometimes");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--launches: 'sometimes' is not first, all or a number"), std::string::npos) << r.output;
}
