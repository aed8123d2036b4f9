// Private (local) memory per thread against the target's limit (family "launch"): a per-thread histogram
// indexed by data keeps its 24000-byte array in memory - over the MetaX C500's 16 KB, inside NVIDIA's
// 512 KB; its 256-bin twin fits both. A target whose limit is unknown (metax-c550) is not checked.
#include <gtest/gtest.h>

#include "model/rules.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {
std::string histogram(const char* which) { return bundleFile("private_memory", which); }
}  // namespace

TEST(PrivateMemory, OverTheC500sLimitIsReportedAtTheArrayAndNotLaunched) {
  CheckResult r = check(histogram("bundle"), "metax-c500");
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, rule::PrivateMemoryLimit);
  EXPECT_NE(f.title.find("24000 bytes"), std::string::npos) << f.title;
  EXPECT_NE(f.title.find("allows 16384"), std::string::npos) << f.title;
  EXPECT_EQ(f.loc.line, 9u) << "where the array is first used";
  EXPECT_FALSE(r.report.launched);
  EXPECT_EQ(r.report.exitCode(), 1);
}

TEST(PrivateMemory, WithinTheLimitOrUnknownLimitIsClean) {
  CheckResult fixed = check(histogram("bundle_fixed"), "metax-c500");
  EXPECT_TRUE(fixed.report.findings.empty()) << fixed.report.findings[0].title;
  EXPECT_TRUE(fixed.report.launched);
  CheckResult nvidia = check(histogram("bundle"), "nvidia-h200");
  EXPECT_TRUE(nvidia.report.findings.empty()) << "512 KB per thread on NVIDIA";
  EXPECT_TRUE(nvidia.report.launched);
  CheckResult c550 = check(histogram("bundle"), "metax-c550");
  EXPECT_TRUE(c550.report.findings.empty()) << "the C550's limit is not known: not checked";
}
