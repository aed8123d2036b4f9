// Correct kernels report nothing, on a 32-lane and a 64-lane target, and compute what a host
// reference computes: the executor's semantics are checked, not assumed.
#include <cmath>
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

class OnTargets : public ::testing::TestWithParam<std::string> {};

void expectClean(const CheckResult& r) {
  EXPECT_TRUE(r.report.launched);
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  EXPECT_EQ(r.report.exitCode(), 0);
  EXPECT_EQ(r.report.blocksRun, r.report.blocksTotal);
}

void expectGemm(const CheckResult& r, int M, int N, int K) {
  auto A = values(r, "A"), B = values(r, "B"), C = values(r, "C");
  ASSERT_EQ(C.size(), size_t(M) * N);
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += A[i * K + k] * B[k * N + j];
      worst = std::max(worst, std::abs(C[i * N + j] - ref));
    }
  EXPECT_LT(worst, 1e-3) << "largest error against the fp64 reference";
}

}  // namespace

TEST_P(OnTargets, TiledGemm) {
  CheckResult r = check(example("gemm"), GetParam());
  expectClean(r);
  expectGemm(r, 256, 256, 256);
}

TEST_P(OnTargets, GemmAtEdgeSizes) {
  CheckResult r = check(example("gemm"), GetParam(), {{"M", "100"}, {"N", "70"}, {"K", "33"}});
  expectClean(r);
  expectGemm(r, 100, 70, 33);
}

TEST_P(OnTargets, BlockReduction) {
  CheckResult r = check(bundle("reduce"), GetParam());
  expectClean(r);
  auto in = values(r, "in"), out = values(r, "out");
  for (size_t b = 0; b < out.size(); ++b) {
    double ref = 0;
    for (size_t i = b * 256; i < std::min(in.size(), (b + 1) * 256); ++i) ref += in[i];
    EXPECT_NEAR(out[b], ref, 1e-4) << "block " << b;
  }
}

TEST_P(OnTargets, TransposeThroughPaddedSharedMemory) {
  CheckResult r = check(bundle("transpose"), GetParam());
  expectClean(r);
  auto in = values(r, "in"), out = values(r, "out");
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 70; ++j) ASSERT_EQ(out[j * 100 + i], in[i * 70 + j]) << i << "," << j;
}

TEST_P(OnTargets, RowSoftmaxWithWarpShuffles) {
  std::string warp = GetParam() == "metax-c500" ? "64" : "32";
  CheckResult r = check(bundle("softmax"), GetParam(), {{"WARP", warp}});
  if (GetParam() == "metax-c500") {
    // Its literal 0xffffffff masks name half of a 64-lane wave: a porting finding, one per shuffle site;
    // the executor runs them over the whole wave, so the values are right.
    ASSERT_FALSE(r.report.findings.empty());
    for (const Finding& f : r.report.findings) EXPECT_EQ(f.kind, "warp-size-assumption") << f.title;
  } else {
    expectClean(r);
  }
  auto x = values(r, "x"), y = values(r, "y");
  for (int row = 0; row < 64; ++row) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < 200; ++c) m = std::max(m, x[row * 200 + c]);
    for (int c = 0; c < 200; ++c) s += std::exp(x[row * 200 + c] - m);
    for (int c = 0; c < 200; ++c) ASSERT_NEAR(y[row * 200 + c], std::exp(x[row * 200 + c] - m) / s, 1e-5);
  }
}

TEST_P(OnTargets, DynamicSharedMemory) {
  CheckResult r = check(bundle("dynsmem"), GetParam());
  expectClean(r);
  auto in = values(r, "in"), out = values(r, "out");
  for (int b = 0; b < 8; ++b)
    for (int t = 0; t < 128; ++t) ASSERT_NEAR(out[b * 128 + 127 - t], 0.5 * in[b * 128 + t], 2e-3);
}

INSTANTIATE_TEST_SUITE_P(Targets, OnTargets, ::testing::Values("nvidia-h200", "metax-c500"));

TEST(CorrectKernels, HopperSizedDynamicTileFitsOnH200) {
  CheckResult r = check(example("tile_too_large"), "nvidia-h200");
  expectClean(r);
  expectGemm(r, 256, 256, 384);
}

// The executor really runs the profile's warp size: shuffles see 64 lanes on metax-c500.
TEST(WarpSize, ProfileDecidesTheWarp) {
  for (int w : {32, 64}) {
    CheckResult r = check(bundle("warp_probe"), w == 32 ? "nvidia-h100" : "metax-c500");
    if (w == 32) {
      expectClean(r);
    } else {  // the probe's literal 0xffffffff masks are 32-lane code: reported, and run over the whole wave
      ASSERT_EQ(r.report.findings.size(), 2u);
      for (const Finding& f : r.report.findings) {
        EXPECT_EQ(f.kind, "warp-size-assumption") << f.title;
        EXPECT_TRUE(f.loc.line == 6u || f.loc.line == 8u) << f.loc.line;
      }
    }
    auto size = values(r, "size"), leader = values(r, "leader"), sum = values(r, "warp_sum");
    for (int t = 0; t < 128; ++t) {
      int first = t / w * w;
      ASSERT_EQ(size[t], w);
      ASSERT_EQ(leader[t], first) << "thread " << t;
      ASSERT_EQ(sum[t], w * first + w * (w - 1) / 2) << "thread " << t;
    }
  }
}

// CUDA's __reduce_*_sync through clang 19, whose header hands the intrinsics mask and value swapped
// (frontend/compiler.cpp puts them back): warp sums, unsigned maxima and signed minima per 32-lane warp.
TEST(WarpReduce, ReduceSyncSeesItsValueAndMask) {
  CheckResult r = check(bundle("warp_reduce"), "nvidia-h200");
  expectClean(r);
  auto sum = values(r, "sum"), largest = values(r, "largest"), smallest = values(r, "smallest");
  for (int t = 0; t < 64; ++t) {
    int first = t / 32 * 32, expectSum = 0, expectMax = 0;
    for (int u = first; u < first + 32; ++u) expectSum += u, expectMax = std::max(expectMax, u * 7 % 13);
    ASSERT_EQ(sum[t], expectSum) << "thread " << t;
    ASSERT_EQ(largest[t], expectMax) << "thread " << t;
    ASSERT_EQ(smallest[t], 5 - (first + 31)) << "thread " << t;
  }
}
