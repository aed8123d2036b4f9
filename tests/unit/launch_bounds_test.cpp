// MACA compiles a kernel without __launch_bounds__ for 512 threads per block (profile
// default_launch_bounds): a 1024-thread launch of one is a warning on MetaX, and runs; the same kernel is
// clean on NVIDIA (CUDA assumes 1024), and its twin with __launch_bounds__(1024) is clean everywhere.
#include <gtest/gtest.h>

#include "model/rules.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {
std::string scaleRows(const char* which) { return bundleFile("launch_bounds", which); }
}  // namespace

TEST(LaunchBounds, UnboundedKernelOverMacasDefaultIsAWarningAtTheKernelAndRuns) {
  CheckResult r = check(scaleRows("bundle"), "metax-c500");
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, rule::LaunchBoundsDefault);
  EXPECT_EQ(findRule(f.kind)->severity, Severity::Warning);
  EXPECT_NE(f.title.find("at most 512 threads"), std::string::npos) << f.title;
  EXPECT_NE(f.title.find("launched with 1024"), std::string::npos) << f.title;
  EXPECT_NE(f.loc.file.find("kernel.cu"), std::string::npos) << f.loc.file;
  EXPECT_EQ(f.loc.line, 3u) << "the kernel's definition";
  EXPECT_TRUE(r.report.launched) << "a recompile, not a refusal";
  std::vector<double> in = values(r, "in"), out = values(r, "out");
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 2 * static_cast<float>(in[i])) << i;
}

TEST(LaunchBounds, BoundedKernelOrNvidiaOrSmallBlockIsClean) {
  CheckResult bounded = check(scaleRows("bundle_bounded"), "metax-c500");
  EXPECT_TRUE(bounded.report.findings.empty()) << bounded.report.findings[0].title;
  CheckResult nvidia = check(scaleRows("bundle"), "nvidia-h200");
  EXPECT_TRUE(nvidia.report.findings.empty()) << "CUDA compiles an unbounded kernel for 1024 threads";
  CheckResult c550 = check(scaleRows("bundle"), "metax-c550");
  EXPECT_EQ(c550.report.findings.size(), 1u) << "the same compiler on the C550";
  CheckResult within = check(scaleRows("bundle_512"), "metax-c500");
  EXPECT_TRUE(within.report.findings.empty()) << "512 threads: what MACA built it for";
}
