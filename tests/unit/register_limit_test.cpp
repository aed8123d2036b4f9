// Registers per block against NVIDIA's 64K (family "launch"): a kernel keeping 96 running sums a thread,
// without __launch_bounds__, takes more than 64 registers, and 1024 threads of it more than a block may
// have - the driver would refuse the launch. Bounded, or with 256 threads, it fits; MetaX is not counted
// (no MACA compiler here). The figures are ptxas's, so these tests need the CUDA toolkit.
#include <gtest/gtest.h>

#include "profiler/profile_report.h"
#include "profiler/ptxas_usage.h"
#include "model/rules.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {
std::string hungry(const char* which) { return bundleFile("register_limit", which); }

bool reports(const CheckResult& r, const char* kind) {
  for (const Finding& f : r.report.findings)
    if (f.kind == kind) return true;
  return false;
}
}  // namespace

TEST(RegisterLimit, AnUnboundedKernelOverTheBlocksRegistersIsNotLaunched) {
  if (findPtxas().empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit): registers are not counted";
  CheckResult r = check(hungry("bundle"), "nvidia-h200");
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, rule::RegisterLimit);
  EXPECT_NE(f.title.find("x 1024 threads"), std::string::npos) << f.title;
  EXPECT_NE(f.title.find("allows 65536"), std::string::npos) << f.title;
  EXPECT_EQ(f.loc.line, 22u) << "at the kernel";
  EXPECT_FALSE(r.report.launched);
  // the same figure as profile's, which shows it over the limit too
  ProfileReport p = buildProfileReport(hungry("bundle"), {}, {"nvidia-h200"});
  ASSERT_TRUE(p.launch.registers.has_value());
  EXPECT_GT(p.launch.registers->registers, 64);
  EXPECT_NE(f.title.find(std::to_string(p.launch.registers->registers) + " registers a thread"), std::string::npos);
  ASSERT_EQ(p.targets[0].overLimit.size(), 1u);
  EXPECT_EQ(p.targets[0].overLimit[0].rfind("registers:", 0), 0u) << p.targets[0].overLimit[0];
}

TEST(RegisterLimit, TheAssemblersFigureIsKeptBetweenRunsAndTheSame) {
  if (findPtxas().empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit): registers are not counted";
  CacheFolder cache;
  ProfileReport first = buildProfileReport(hungry("bundle"), {}, {"nvidia-h200"});
  EXPECT_EQ(cache.entries("registers", ".txt"), 1u);
  ProfileReport again = buildProfileReport(hungry("bundle"), {}, {"nvidia-h200"});
  EXPECT_EQ(cache.entries("registers", ".txt"), 1u);
  ASSERT_TRUE(first.launch.registers && again.launch.registers);
  EXPECT_EQ(again.launch.registers->registers, first.launch.registers->registers);
  EXPECT_EQ(again.launch.registers->source, first.launch.registers->source);
  ProfileReport smaller = buildProfileReport(hungry("bundle_256"), {}, {"nvidia-h200"});  // another launch shape
  EXPECT_EQ(cache.entries("registers", ".txt"), 2u);
  EXPECT_TRUE(smaller.launch.registers.has_value());
}

TEST(RegisterLimit, BoundedSmallerOrOnMetaxItIsClean) {
  if (findPtxas().empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit): registers are not counted";
  CheckResult bounded = check(hungry("bundle_bounded"), "nvidia-h200");
  EXPECT_FALSE(reports(bounded, rule::RegisterLimit)) << "__launch_bounds__(1024): the assembler keeps to 64";
  EXPECT_TRUE(bounded.report.launched);
  CheckResult small = check(hungry("bundle_256"), "nvidia-h200");
  EXPECT_TRUE(small.report.findings.empty());
  EXPECT_TRUE(small.report.launched);
  CheckResult metax = check(hungry("bundle"), "metax-c500");
  EXPECT_FALSE(reports(metax, rule::RegisterLimit)) << "NVIDIA's assembler does not speak for MetaX";
}
