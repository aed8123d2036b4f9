// Hardware features a target lacks (family "launch", kind target-unsupported): MetaX has no TMA, no
// warpgroup MMA, no mbarriers, no clusters and no MMA with fp16 accumulators. A kernel using one is
// reported at the statement, before anything runs; NVIDIA targets, and kernels without them, say nothing.
#include <gtest/gtest.h>

#include "model/rules.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

std::vector<const Finding*> unsupported(const CheckResult& r) {
  std::vector<const Finding*> out;
  for (const Finding& f : r.report.findings)
    if (f.kind == rule::TargetUnsupported) out.push_back(&f);
  return out;
}

}  // namespace

TEST(TargetFeatures, MbarriersAreNamedOnMetaxAndRunOnNvidia) {
  CheckResult metax = check(bundle("mbarrier"), "metax-c500");
  std::vector<const Finding*> u = unsupported(metax);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_NE(u[0]->title.find("mbarrier."), std::string::npos) << u[0]->title;
  EXPECT_NE(u[0]->title.find("metax-c500"), std::string::npos);
  EXPECT_GT(u[0]->loc.line, 0u) << "the statement's line";
  EXPECT_FALSE(metax.report.launched);
  CheckResult nvidia = check(bundle("mbarrier"), "nvidia-h200");
  EXPECT_TRUE(unsupported(nvidia).empty());
  EXPECT_TRUE(nvidia.report.launched);
}

TEST(TargetFeatures, HopperTmaOnMetaxIsUnsupportedNotACpuRefusal) {
  CheckResult r = check(bundle("tma_copy"), "metax-c500");  // no ExecutorCannotRun: the target speaks first
  bool tma = false, mbarrier = false;
  for (const Finding* f : unsupported(r)) {
    tma |= f->title.find("cp.async.bulk.tensor") != std::string::npos && f->loc.line == 20;
    mbarrier |= f->title.find("mbarrier.init") != std::string::npos;
  }
  EXPECT_TRUE(tma);
  EXPECT_TRUE(mbarrier);
  EXPECT_EQ(r.report.exitCode(), 1);
}

TEST(TargetFeatures, OnlyFp16AccumulatorsOfTheMmaFormsAreUnsupported) {
  CheckResult r = check(bundle("ptx_ops"), "metax-c500");
  std::vector<const Finding*> u = unsupported(r);
  ASSERT_EQ(u.size(), 1u) << "the f32-accumulating forms are MetaX's too";
  EXPECT_NE(u[0]->title.find(".f16.f16.f16.f16"), std::string::npos) << u[0]->title;
  EXPECT_EQ(u[0]->loc.line, 46u);
}

TEST(TargetFeatures, KernelsWithoutThemAreClean) {
  for (const char* b : {"reduce", "softmax", "dynsmem", "cp_async_tl"}) {
    CheckResult r = check(bundle(b), "metax-c500");
    EXPECT_TRUE(unsupported(r).empty()) << b;
  }
}
