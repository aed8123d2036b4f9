// bisect-shape's search against oracles written here: the threshold found exactly, within the probe
// budget the issue sets (ceil(log2(values)) + 4 per axis), non-monotone evidence reported, residue
// periods found, the smallest failing combination of two axes, and a probe that cannot be judged stopping
// the search where it happened.
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <functional>

#include "bisect/fail_condition.h"
#include "bisect/search.h"
#include "frontend/input_error.h"

using namespace td::bisect;

namespace {

class FunctionProber : public Prober {
 public:
  FunctionProber(std::function<Verdict(const Shape&)> f, int ways = 1) : f_(std::move(f)), ways_(ways) {}
  std::vector<ProbeOutcome> probe(const std::vector<Shape>& shapes) override {
    std::vector<ProbeOutcome> out;
    for (const Shape& s : shapes) {
      ++calls;
      ProbeOutcome o;
      o.verdict = f_(s);
      out.push_back(o);
    }
    return out;
  }
  int parallel() const override { return ways_; }
  int calls = 0;

 private:
  std::function<Verdict(const Shape&)> f_;
  int ways_;
};

Verdict failsFrom(int64_t v, int64_t threshold) { return v >= threshold ? Verdict::Fail : Verdict::Pass; }

int budget(const Axis& a) { return static_cast<int>(std::ceil(std::log2(double(a.count())))) + 4; }

}  // namespace

TEST(BisectSearch, EveryThresholdOfOneAxisIsFoundWithinTheBudget) {
  for (auto [lo, hi, align] : {std::tuple{1, 4096, 1}, {64, 8192, 64}, {16, 512, 16}, {1, 3, 1}, {8, 9, 1}}) {
    Axis a = parseAxis(fmt::format("M={}:{}", lo, hi), align);
    for (int64_t t : a.values()) {
      FunctionProber p([&](const Shape& s) { return failsFrom(s[0], t); });
      SearchResult r = search({a}, p, {});
      ASSERT_LE(p.calls, budget(a)) << "threshold " << t;
      if (t == a.values().front()) {
        EXPECT_TRUE(r.lowestFails);
        EXPECT_EQ(r.axes[0].kind, AxisResult::Kind::FailsAtLowest);
        continue;
      }
      ASSERT_EQ(r.axes[0].kind, AxisResult::Kind::Threshold) << t;
      EXPECT_EQ(r.axes[0].firstFail, t);
      EXPECT_EQ(r.axes[0].lastPass, t - a.align);
      EXPECT_TRUE(r.monotone());
      ASSERT_TRUE(r.failing && r.passing);
      EXPECT_EQ((*r.failing)[0], t);
      EXPECT_EQ((*r.passing)[0], t - a.align);
    }
  }
}

TEST(BisectSearch, NoFailureInTheRangeSaysWhichValuesPassed) {
  Axis a = parseAxis("M=1:1000", 1);
  FunctionProber p([](const Shape&) { return Verdict::Pass; });
  SearchResult r = search({a}, p, {});
  EXPECT_EQ(r.axes[0].kind, AxisResult::Kind::NoFailure);
  EXPECT_FALSE(r.failing);
  EXPECT_EQ(r.axes[0].probedPassing, (std::vector<int64_t>{1, 33, 1000}));
}

TEST(BisectSearch, ParallelProbesFindTheSameThreshold) {
  Axis a = parseAxis("M=1:5000", 1);
  for (int64_t t : {2, 77, 1921, 4999, 5000}) {
    FunctionProber p([&](const Shape& s) { return failsFrom(s[0], t); }, 4);
    SearchResult r = search({a}, p, {});
    ASSERT_EQ(r.axes[0].kind, AxisResult::Kind::Threshold);
    EXPECT_EQ(r.axes[0].firstFail, t);
  }
}

TEST(BisectSearch, APassAboveAFailureIsReportedAsNonMonotone) {
  // Fails only at odd multiples of 8 (tilelang #2593's block_N = 8 mod 16).
  Axis a = parseAxis("N=8:512", 8);
  auto oddMultiple = [](const Shape& s) { return (s[0] / 8) % 2 == 1 ? Verdict::Fail : Verdict::Pass; };
  FunctionProber p(oddMultiple);
  SearchResult r = search({a}, p, {});
  EXPECT_FALSE(r.monotone());
  ASSERT_FALSE(r.axes[0].contradictions.empty());
  EXPECT_EQ(r.axes[0].contradictions[0], (std::pair<int64_t, int64_t>{8, 16}));
  EXPECT_FALSE(r.axes[0].residues);  // only scanned on request

  FunctionProber scanned(oddMultiple);
  SearchResult withScan = search({parseAxis("N=16:512", 8)}, scanned, {.scanResidues = true});
  ASSERT_TRUE(withScan.axes[0].residues);
  EXPECT_EQ(withScan.axes[0].residues->modulus, 16);
  EXPECT_EQ(withScan.axes[0].residues->residues, (std::vector<int64_t>{8}));
  EXPECT_FALSE(withScan.monotone());
}

TEST(BisectSearch, AMonotoneFailureHasNoResiduePeriod) {
  Axis a = parseAxis("N=8:512", 8);
  FunctionProber p([](const Shape& s) { return failsFrom(s[0], 200); });
  SearchResult r = search({a}, p, {.scanResidues = true});
  ASSERT_TRUE(r.axes[0].residues);
  EXPECT_EQ(r.axes[0].residues->modulus, 0);
  EXPECT_TRUE(r.monotone());
  EXPECT_EQ(r.axes[0].firstFail, 200);
}

TEST(BisectSearch, TwoAxesThatFailOnlyTogetherGiveTheSmallestFailingCombination) {
  std::vector<Axis> axes = {parseAxis("M=16:1024", 16), parseAxis("N=16:1024", 16)};
  FunctionProber p([](const Shape& s) { return s[0] >= 96 && s[1] >= 160 ? Verdict::Fail : Verdict::Pass; });
  SearchResult r = search(axes, p, {});
  EXPECT_TRUE(r.combination);
  ASSERT_TRUE(r.failing && r.passing);
  EXPECT_EQ(*r.failing, (Shape{96, 160}));
  EXPECT_EQ(*r.passing, (Shape{96, 144}));
  EXPECT_LE(p.calls, budget(axes[0]) + budget(axes[1]));
}

TEST(BisectSearch, TwoAxesOfAProductFrontier) {
  std::vector<Axis> axes = {parseAxis("BM=16:256", 16), parseAxis("BN=16:256", 16)};
  // Shared memory BM * BN * 4 bytes against a limit: with 8 KiB each axis alone crosses it (the other at
  // 16); the smaller failure is explained, no combination search needed.
  FunctionProber alone([](const Shape& s) { return s[0] * s[1] * 4 > 8192 ? Verdict::Fail : Verdict::Pass; });
  SearchResult r = search(axes, alone, {});
  EXPECT_FALSE(r.combination);
  EXPECT_EQ(r.axes[0].firstFail, 144);
  EXPECT_EQ(r.axes[1].firstFail, 144);
  EXPECT_EQ(*r.failing, (Shape{144, 16}));
  EXPECT_EQ(*r.passing, (Shape{128, 16}));
  EXPECT_EQ(r.decidedBy, "BM");
  // With 16 KiB neither fails alone: from the corner, BM is lowered first, then BN.
  FunctionProber together([](const Shape& s) { return s[0] * s[1] * 4 > 16384 ? Verdict::Fail : Verdict::Pass; });
  SearchResult c = search(axes, together, {});
  EXPECT_TRUE(c.combination);
  EXPECT_EQ(*c.failing, (Shape{32, 144}));
  EXPECT_EQ(*c.passing, (Shape{32, 128}));
  EXPECT_EQ(c.decidedBy, "BN");
  EXPECT_LE(together.calls, budget(axes[0]) + budget(axes[1]));
}

TEST(BisectSearch, AProbeThatCannotBeJudgedStopsTheSearchThere) {
  Axis a = parseAxis("M=1:100", 1);
  FunctionProber p([](const Shape& s) { return s[0] >= 40 ? Verdict::Error : Verdict::Pass; });
  SearchResult r = search({a}, p, {});
  ASSERT_TRUE(r.stoppedBy);
  EXPECT_GE(r.stoppedBy->shape[0], 40);
  EXPECT_FALSE(r.failing);
}

TEST(BisectSearch, PeriodsAreTheSmallestThatRepeat) {
  EXPECT_EQ(periodOf({true, false, true, false, true, false}), 2);
  EXPECT_EQ(periodOf({true, false, false, true, false, false, true, false}), 3);
  EXPECT_EQ(periodOf({false, false, true, true, true, true}), 0);
  EXPECT_EQ(periodOf({true, true, true, true}), 0);
}

TEST(BisectAxis, BadAxesAreInputErrors) {
  for (const char* bad : {"M", "M=1", "=1:2", "M=a:2", "M=5:2", "M=0:4", "M=5:7:4"})
    EXPECT_THROW(parseAxis(bad, 1), td::InputError) << bad;
  Axis a = parseAxis("M=3:70:16", 1);
  EXPECT_EQ(a.values(), (std::vector<int64_t>{16, 32, 48, 64}));
}

TEST(BisectFailOn, ClassesFamiliesAndRuleIds) {
  FailCondition bounds = FailCondition::parse("bounds");
  EXPECT_TRUE(bounds.matches("global-out-of-bounds"));
  EXPECT_FALSE(bounds.matches("shared-race-raw"));
  FailCondition crashOrLimit = FailCondition::parse("crash,limit");
  EXPECT_TRUE(crashOrLimit.matches("kernel-fault"));
  EXPECT_TRUE(crashOrLimit.matches("shared-memory-limit"));
  EXPECT_FALSE(crashOrLimit.matches("kernel-hang"));
  EXPECT_TRUE(FailCondition::parse("hang").matches("deadlock"));
  EXPECT_TRUE(FailCondition::parse("shared-race-war").matches("shared-race-war"));
  EXPECT_THROW(FailCondition::parse("nonsense"), td::InputError);
  EXPECT_THROW(FailCondition::parse(","), td::InputError);
}
