// A small shared array LLVM splits into scalar shared globals (a softmax's max and sum, a layernorm's mean
// and rstd) and constant memory: every family alone and all together instrument it (no internal error),
// report nothing on the correct kernels, and find the missing barrier of the planted twins.
#include <cmath>
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

TEST(SplitSharedArrays, EveryFamilyInstrumentsTwoElementStatistics) {
  for (const char* kernel : {"row_softmax", "row_layernorm"})
    for (const char* checks : {"bounds", "race", "init", "sync", "numerics", "launch", "all"}) {
      SCOPED_TRACE(std::string(kernel) + " --checks " + checks);
      CheckResult r = checkWith(bundleFile("split_shared", kernel), checks);
      EXPECT_TRUE(r.report.launched);
      for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
    }
}

TEST(SplitSharedArrays, TheSoftmaxComputesItsRows) {
  CheckResult r = checkWith(bundleFile("split_shared", "row_softmax"), "all");
  auto x = values(r, "x"), y = values(r, "y");
  for (int row = 0; row < 5; ++row) {
    double m = -1e30, s = 0;
    for (int c = 0; c < 200; ++c) m = std::max(m, x[row * 200 + c]);
    for (int c = 0; c < 200; ++c) s += std::exp(x[row * 200 + c] - m);
    for (int c = 0; c < 200; c += 17) EXPECT_NEAR(y[row * 200 + c], std::exp(x[row * 200 + c] - m) / s, 1e-5);
  }
}

TEST(SplitSharedArrays, StatisticsReadBeforeTheBarrierAreARace) {
  for (const char* kernel : {"row_softmax_no_barrier", "row_layernorm_no_barrier"}) {
    SCOPED_TRACE(kernel);
    CheckResult r = checkWith(bundleFile("split_shared", kernel), "all");
    const Finding* f = find(r, "shared-race-raw");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->buffer.find("stats"), std::string::npos) << f->buffer;
  }
}
