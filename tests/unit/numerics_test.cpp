// Family "numerics" on the CPU executor: FP32/FP64 shadows, per-site drift and where non-finite values are
// born. Planted: a GEMV and a tiled GEMM accumulating in half over K = 1024 (drift at the accumulator, agreeing
// with an fp64 computation here, with the iteration it passed the threshold), a softmax exponentiating raw logits up to 120 (fp-overflow at the expf lines), a
// one-pass variance whose cancellation goes negative (fp-invalid at sqrtf). Correct twins (float
// accumulator, max subtracted, variance clamped) report nothing.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <gtest/gtest.h>

#include "frontend/input_error.h"
#include "model/rules.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

std::string numerics(const std::string& which) { return bundleFile("numerics", which); }

CheckRequest numericsRequest(const std::string& which) {
  CheckRequest r;
  r.bundlePath = numerics(which);
  r.checks = "numerics";
  r.launch.jobs = 2;
  r.launch.timeoutSeconds = 60;
  return r;
}

CheckResult checkNumerics(const std::string& which) { return runCheck(numericsRequest(which)); }

// The drift a precision-drift finding states: "... X from exact arithmetic".
double statedDrift(const Finding& f) {
  size_t end = f.title.find(" from exact arithmetic");
  if (end == std::string::npos) return -1;
  size_t start = f.title.rfind(' ', end - 1);
  return std::stod(f.title.substr(start + 1, end - start - 1));
}

// The first of a finding's notes that contains `text` ("" when none does).
std::string noteWith(const Finding& f, const std::string& text) {
  for (const std::string& n : f.notes)
    if (n.find(text) != std::string::npos) return n;
  return "";
}

// The iteration a drift note states: "... first at iteration N of its loop ...".
long statedIteration(const Finding& f) {
  std::string n = noteWith(f, "first at iteration ");
  return n.empty() ? -1 : std::stol(n.substr(n.find("first at iteration ") + 19));
}

// Normwise drift max|y - exact| / max|exact| of y = rows x K times K x cols (A row-major, B row-major).
double normwiseDrift(const std::vector<double>& A, const std::vector<double>& B, const std::vector<double>& y, int rows,
                     int K, int cols) {
  double maxErr = 0, maxMag = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      double exact = 0;
      for (int k = 0; k < K; ++k) exact += A[r * K + k] * B[k * cols + c];
      maxErr = std::max(maxErr, std::fabs(y[r * cols + c] - exact));
      maxMag = std::max(maxMag, std::fabs(exact));
    }
  return maxErr / maxMag;
}

// The first iteration at which a row of the GEMV's half accumulator was `threshold` of its largest
// magnitude so far away from exact arithmetic, replayed here: each __hfma rounds the exact a * x + acc once
// to half; accumulators are checked at every TD_NUM_STRIDE-th iteration (8), the largest magnitude taken at
// those.
long firstCheckedIterationPast(const std::vector<double>& A, const std::vector<double>& x, double threshold) {
  long first = -1;
  for (int row = 0; row < 256; ++row) {
    _Float16 acc = 0;
    double exact = 0, largest = 0;
    for (int k = 0; k < 1024; ++k) {
      if (k % 8 == 0) largest = std::max(largest, std::fabs(exact));
      if (k % 8 == 0 && largest >= 0x1p-14 && std::fabs(double(acc) - exact) >= threshold * largest) {
        if (first < 0 || k < first) first = k;
        break;
      }
      exact += A[row * 1024 + k] * x[k];
      acc = static_cast<_Float16>(A[row * 1024 + k] * x[k] + double(acc));
    }
  }
  return first;
}

}  // namespace

TEST(Numerics, HalfAccumulatorDriftIsReportedAtTheAccumulatorAndAgreesWithFp64) {
  CheckResult r = checkNumerics("gemv_half_accum");
  ASSERT_EQ(r.report.findings.size(), 1u) << r.report.findings.front().title;
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, rule::PrecisionDrift);
  EXPECT_EQ(f.loc.line, 9u) << "the __hfma accumulator";
  ASSERT_EQ(f.related.size(), 1u);
  EXPECT_EQ(f.related[0].first, "stored at");
  EXPECT_EQ(f.related[0].second.line, 10u);
  EXPECT_EQ(f.buffer, "y");
  EXPECT_EQ(f.count, 256u);
  // The same normwise error computed here in double from the kernel's own inputs and outputs.
  std::vector<double> A = values(r, "A"), x = values(r, "x"), y = values(r, "y");
  double independent = normwiseDrift(A, x, y, 256, 1024, 1), stated = statedDrift(f);
  EXPECT_GT(independent, 1e-2) << "the planted accumulation drifts past half's threshold";
  EXPECT_NEAR(stated, independent, 0.1 * independent) << f.title;
  EXPECT_NE(noteWith(f, "y[").find("largest error"), std::string::npos) << "the worst element's coordinates";
  EXPECT_EQ(statedIteration(f), firstCheckedIterationPast(A, x, 0x1p-9)) << noteWith(f, "first at iteration");
}

// At another threshold the accumulator is checked against that one (the level at or below it).
TEST(Numerics, TheAccumulatorsIterationFollowsTheThreshold) {
  CheckRequest req = numericsRequest("gemv_half_accum");
  req.settings["drift-threshold"] = "half=0x1p-6";
  CheckResult r = runCheck(req);
  ASSERT_EQ(r.report.findings.size(), 1u);
  long first = firstCheckedIterationPast(values(r, "A"), values(r, "x"), 0x1p-6);
  EXPECT_GT(first, firstCheckedIterationPast(values(r, "A"), values(r, "x"), 0x1p-9));
  EXPECT_EQ(statedIteration(r.report.findings[0]), first) << noteWith(r.report.findings[0], "first at iteration");
}

TEST(Numerics, TiledGemmAccumulatingInHalfDriftsAtItsAccumulatorAndItsFloatTwinIsClean) {
  CheckResult r = checkNumerics("gemm_half_accum");
  ASSERT_EQ(r.report.findings.size(), 1u) << r.report.findings.front().title;
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, rule::PrecisionDrift);
  EXPECT_EQ(f.loc.line, 16u) << "acc = acc + As * Bs";
  ASSERT_EQ(f.related.size(), 1u);
  EXPECT_EQ(f.related[0].second.line, 19u);
  EXPECT_EQ(f.buffer, "C");
  std::vector<double> A = values(r, "A"), B = values(r, "B"), C = values(r, "C");
  double independent = normwiseDrift(A, B, C, 64, 1024, 64);
  EXPECT_GT(independent, 0x1p-9);
  EXPECT_NEAR(statedDrift(f), independent, 0.1 * independent) << f.title;
  EXPECT_NE(noteWith(f, "each iteration updates it 16 times"), "") << "the k loop is unrolled: 16 adds an iteration";

  CheckResult twin = checkNumerics("gemm_float_accum");
  EXPECT_TRUE(twin.report.findings.empty()) << twin.report.findings.front().title;
  std::vector<double> A2 = values(twin, "A"), B2 = values(twin, "B"), C2 = values(twin, "C");
  EXPECT_LE(normwiseDrift(A2, B2, C2, 64, 1024, 64), 0x1p-11) << "one rounding to half at the store";
}

TEST(Numerics, FloatAccumulatorIsCleanAndAtTheLevelOfOneRounding) {
  CheckResult r = checkNumerics("gemv_float_accum");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
  std::vector<double> A = values(r, "A"), x = values(r, "x"), y = values(r, "y");
  for (int row = 0; row < 256; ++row) {
    double exact = 0;
    for (int k = 0; k < 1024; ++k) exact += A[row * 1024 + k] * x[k];
    ASSERT_LE(std::fabs(y[row] - exact), std::fabs(exact) * 0x1p-10) << "row " << row << ": about one half rounding";
  }
}

TEST(Numerics, SdkHalfHelpersAreShadowedThroughTheirInlinePtx) {
  CheckResult r = checkNumerics("gemv_sdk_half_accum");
  ASSERT_EQ(r.report.findings.size(), 1u);
  EXPECT_EQ(r.report.findings[0].kind, rule::PrecisionDrift);
  EXPECT_EQ(r.report.findings[0].loc.line, 9u) << "the __hfma accumulator";
  CheckResult prelude = checkNumerics("gemv_half_accum");
  EXPECT_EQ(statedDrift(r.report.findings[0]), statedDrift(prelude.report.findings[0])) << "the same arithmetic";
  CheckResult twin = checkNumerics("gemv_sdk_float_accum");
  EXPECT_TRUE(twin.report.findings.empty()) << twin.report.findings.front().title;
}

TEST(Numerics, AFloatRoundedThroughHalfByTheKernelIsHeldToHalfsThreshold) {
  // half_scalars stores __half2float(__float2half(x)) as float: 2.9e-4 from x, far past float's 1e-4 but
  // the precision the kernel chose; SDK conversions of every kind run through the shadows on the way.
  CheckRequest r;
  r.bundlePath = bundle("half_scalars");
  r.checks = "numerics";
  CheckResult res = runCheck(r);
  EXPECT_EQ(find(res, rule::PrecisionDrift), nullptr) << res.report.findings.front().title;
}

TEST(Numerics, ExpOfRawLogitsOverflowsWhereItIsBorn) {
  CheckResult r = checkNumerics("softmax_naive");
  const Finding* sum = find(r, rule::FpOverflow, 6);
  const Finding* out = find(r, rule::FpOverflow, 7);
  ASSERT_NE(sum, nullptr) << "the expf in the sum";
  ASSERT_NE(out, nullptr) << "the expf of the output";
  EXPECT_NE(sum->title.find("expf (float) gave inf"), std::string::npos) << sum->title;
  EXPECT_FALSE(sum->threads.empty());
  EXPECT_NE(sum->notes[0].find("wider shadow is finite"), std::string::npos) << sum->notes[0];
  EXPECT_EQ(find(r, rule::FpInvalid), nullptr) << "x / inf is 0, and inf / inf is never born from finite operands";
}

// An fma summing round a loop: an overflow inside the loop is born at the fma, an Inf the sum started from
// was not (without the addend's state each later step would be reported as a birth: 8192 false ones here).
// The records learn that state from a mask carried round the loop, not from the previous sum (issue 34).
TEST(Numerics, AnOverflowInsideAnAccumulationIsBornThereAndAnInfHandedInIsNot) {
  CheckResult over = checkNumerics("growing_dot_overflow");
  ASSERT_EQ(over.report.findings.size(), 1u);
  const Finding* born = find(over, rule::FpOverflow, 8);
  ASSERT_NE(born, nullptr) << over.report.findings[0].title;
  EXPECT_EQ(born->count, 128u) << "once in every thread's sum";
  EXPECT_NE(born->title.find("from finite operands"), std::string::npos) << born->title;
  CheckResult carried = checkNumerics("growing_dot_carried");
  EXPECT_TRUE(carried.report.findings.empty()) << carried.report.findings.front().title;
}

TEST(Numerics, SqrtOfACancelledVarianceIsANanBornThere) {
  CheckResult r = checkNumerics("row_std");
  ASSERT_EQ(r.report.findings.size(), 1u) << r.report.findings.front().title;
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, rule::FpInvalid);
  EXPECT_EQ(f.loc.line, 13u) << "the sqrtf, not the store";
  EXPECT_NE(f.title.find("sqrtf (float) gave NaN"), std::string::npos) << f.title;
  EXPECT_EQ(f.count, 64u) << "every constant row";
}

TEST(Numerics, ClampedVarianceIsClean) {
  CheckResult r = checkNumerics("row_std_clamped");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
}

TEST(Numerics, SubtractingTheMaximumIsClean) {
  CheckResult r = checkNumerics("softmax_stable");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
}

// Its cost met its target (docs/performance.md): part of --checks all, check's default; left out by naming
// the others.
TEST(Numerics, PartOfAllAndLeftOutByNamingTheOthers) {
  CheckResult r = check(numerics("softmax_naive"));  // --checks all
  EXPECT_NE(find(r, rule::FpOverflow), nullptr);
  CheckRequest req;
  req.bundlePath = numerics("softmax_naive");
  req.checks = "bounds,race,init,sync,launch";
  EXPECT_EQ(find(runCheck(req), rule::FpOverflow), nullptr);
}

TEST(Numerics, HalfTreeReductionIsWithinItsThresholdAndATighterOneNamesTheDriftingStep) {
  // A pairwise tree in half rounds each partial sum once per step: at most log2(1024) units, usually one
  // or two; the default threshold (four units) keeps it clean.
  CheckResult clean = checkNumerics("tree_sum_half");
  EXPECT_TRUE(clean.report.findings.empty()) << clean.report.findings.front().title;

  CheckRequest req;
  req.bundlePath = numerics("tree_sum_half");
  req.checks = "numerics";
  req.settings["drift-threshold"] = "half=0x1p-11";
  CheckResult r = runCheck(req);
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.loc.line, 10u);
  EXPECT_EQ(f.buffer, "partial");
  // The ten steps (the loop is unrolled) replayed here: each partial sum rounded to half, against double.
  std::vector<double> x = values(r, "x");
  std::vector<double> stated;
  std::string note = noteWith(f, "drift of each: ");
  ASSERT_FALSE(note.empty()) << "the steps of the unrolled tree";
  std::stringstream list(note.substr(note.find("drift of each: ") + 15));
  for (std::string item; std::getline(list, item, ',');) stated.push_back(std::stod(item));
  ASSERT_EQ(stated.size(), 10u) << note;
  std::vector<double> maxErr(10, 0), maxMag(10, 0);
  for (int block = 0; block < 8; ++block) {
    std::vector<_Float16> h(1024);
    std::vector<double> e(1024);
    for (int t = 0; t < 1024; ++t) h[t] = static_cast<_Float16>(x[block * 1024 + t]), e[t] = x[block * 1024 + t];
    int step = 0;
    for (int stride = 512; stride > 0; stride >>= 1, ++step)
      for (int t = 0; t < stride; ++t) {
        h[t] = static_cast<_Float16>(double(h[t]) + double(h[t + stride]));
        e[t] += e[t + stride];
        maxErr[step] = std::max(maxErr[step], std::fabs(double(h[t]) - e[t]));
        maxMag[step] = std::max(maxMag[step], std::fabs(e[t]));
      }
  }
  int firstPast = -1;
  for (int step = 0; step < 10; ++step) {
    double replayed = maxErr[step] / maxMag[step];
    EXPECT_NEAR(stated[step], replayed, 0.02 * replayed) << "step " << step;
    if (firstPast < 0 && replayed > 0x1p-11) firstPast = step;
  }
  ASSERT_GE(firstPast, 0);
  EXPECT_NE(note.find("the first to pass the threshold is number " + std::to_string(firstPast + 1)), std::string::npos)
      << note;
}

TEST(Numerics, DriftThresholdAndShadowSettingsAreChecked) {
  CheckRequest req;
  req.bundlePath = numerics("gemv_float_accum");
  req.checks = "numerics";
  for (const char* bad : {"x", "-1", "half=0", "fp8=1e-3", "half"}) {
    req.settings = {{"drift-threshold", bad}};
    EXPECT_THROW(runCheck(req), InputError) << bad;
  }
  req.settings = {{"shadow", "fp16"}};
  EXPECT_THROW(runCheck(req), InputError);
  req.checks = "bounds";
  req.settings = {{"drift-threshold", "1e-3"}};
  try {
    runCheck(req);
    ADD_FAILURE() << "a numerics setting without the numerics family";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--checks numerics"), std::string::npos) << e.what();
  }
  // fp64 shadows of half: the same drift, one threshold for every type: the float twin's store (one
  // rounding to half) passes a threshold of 2^-13 and is reported.
  req.checks = "numerics";
  req.settings = {{"shadow", "fp64"}, {"drift-threshold", "0x1p-13"}};
  CheckResult r = runCheck(req);
  ASSERT_EQ(r.report.findings.size(), 1u);
  EXPECT_EQ(r.report.findings[0].loc.line, 18u) << r.report.findings[0].title;
}

TEST(Numerics, EveryOtherBundleOfTheSuiteIsQuiet) {
  // Every bundle here, with the numerics family alone: only the planted numerics bugs and half_arithmetic's
  // true overflow (60000 * 2 in half) may report a precision-drift, fp-overflow or fp-invalid. Kernels with
  // other planted bugs run too (their crashes are not numerics' business); hangs are left out (timeouts).
  const std::set<std::string> planted = {"numerics/gemm_half_accum.toml", "numerics/gemv_half_accum.toml",
                                         "numerics/gemv_sdk_half_accum.toml", "numerics/row_std.toml",
                                         "numerics/softmax_naive.toml", "numerics/decay_half_sum.toml",
                                         "numerics/growing_dot_overflow.toml",
                                         "half_arithmetic/bundle.toml"};
  namespace fs = std::filesystem;
  std::vector<fs::path> manifests;
  for (const char* root : {TD_TESTS_DIR "/bundles", TD_EXAMPLES_DIR})
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.path().extension() == ".toml") manifests.push_back(e.path());
  std::sort(manifests.begin(), manifests.end());
  int quiet = 0;
  for (const fs::path& m : manifests) {
    std::string name = m.parent_path().filename().string() + "/" + m.filename().string();
    if (name.find("hang") != std::string::npos || name.find("deadlock") != std::string::npos ||
        name.find("bundle_mask_leaves_out") != std::string::npos || name.find("bundle_named_wrong_count") != std::string::npos)
      continue;
    CheckRequest r;
    r.bundlePath = m.string();
    r.checks = "numerics";
    r.launch.jobs = 2;
    r.launch.timeoutSeconds = 10;
    CheckResult res;
    try {
      res = runCheck(r);
    } catch (const std::exception&) {
      continue;  // bundles of bad input (their own tests say so)
    }
    bool numericFinding = false;
    for (const Finding& f : res.report.findings)
      numericFinding |= f.kind == rule::PrecisionDrift || f.kind == rule::FpOverflow || f.kind == rule::FpInvalid;
    if (planted.count(name)) {
      EXPECT_TRUE(numericFinding) << name << ": its planted numerics bug";
    } else {
      for (const Finding& f : res.report.findings)
        EXPECT_TRUE(f.kind != rule::PrecisionDrift && f.kind != rule::FpOverflow && f.kind != rule::FpInvalid)
            << name << ": " << f.kind << ": " << f.title;
      ++quiet;
    }
  }
  EXPECT_GE(quiet, 60) << "the sweep found the suite's bundles";
}

TEST(Numerics, MmaOnFragmentsTheKernelComputedSumsTheirShadows) {
  // A's fragment is A * 3/7 rounded to half in the kernel: its registers carry shadows of their own, so D's
  // shadow is the warp's sum of the unrounded products, and D drifts by A's rounding. (A fragment loaded
  // as it is takes the tensor core's products instead: the GEMM tests.)
  CheckRequest req;
  req.bundlePath = numerics("mma_scaled");
  req.checks = "numerics";
  req.settings["drift-threshold"] = "1e-6";  // every type: D is float rounded through half
  CheckResult r = runCheck(req);
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.loc.line, 24u);
  EXPECT_NE(f.title.find("rounded through half"), std::string::npos) << f.title;
  std::vector<double> A = values(r, "A"), B = values(r, "B"), D = values(r, "D");
  double maxErr = 0, maxMag = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      double exact = 0;
      for (int k = 0; k < 16; ++k) exact += A[i * 16 + k] * double(3.0f / 7.0f) * B[k * 8 + j];
      maxErr = std::max(maxErr, std::fabs(D[i * 8 + j] - exact));
      maxMag = std::max(maxMag, std::fabs(exact));
    }
  double independent = maxErr / maxMag;
  EXPECT_GT(independent, 1e-5) << "A's rounding to half";
  EXPECT_NEAR(statedDrift(f), independent, 0.1 * independent) << f.title;
}

TEST(Numerics, SubnormalStoresAreCountedOnRequest) {
  // y = x * 2^-20 in half: inputs in [0, 1) land below half's smallest normal 2^-14, each within one
  // rounding. Values that small are not drift (the error is measured against an absolute floor, the type's
  // smallest normal, as assert_close has an atol); --subnormals counts them per store, checked here against
  // the kernel's own inputs; the float twin has none.
  CheckRequest req;
  req.bundlePath = numerics("tiny_scale_half");
  req.checks = "numerics";
  CheckResult plain = runCheck(req);
  for (const Finding& f : plain.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  EXPECT_EQ(find(plain, rule::SubnormalValues), nullptr) << "counted only on request";

  req.settings["subnormals"] = "on";
  CheckResult r = runCheck(req);
  const Finding* f = find(r, rule::SubnormalValues);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->loc.line, 6u);
  EXPECT_EQ(f->buffer, "y");
  std::vector<double> x = values(r, "x"), y = values(r, "y");
  unsigned subnormal = 0, zeros = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double exact = x[i] * 0x1p-20;
    if (y[i] != 0 && std::fabs(y[i]) < 0x1p-14) ++subnormal;
    if (y[i] == 0 && exact != 0) ++zeros;
  }
  EXPECT_NE(f->title.find(std::to_string(subnormal) + " of 1024 half stores"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find(std::to_string(zeros) + " stored zero"), std::string::npos) << f->title;
  EXPECT_EQ(f->count, subnormal + zeros);

  req.bundlePath = numerics("tiny_scale_float");
  CheckResult twin = runCheck(req);
  EXPECT_TRUE(twin.report.findings.empty()) << twin.report.findings.front().title;
  req.settings["subnormals"] = "maybe";
  EXPECT_THROW(runCheck(req), InputError);
}

TEST(Numerics, ValuesDecayingToZeroAreNotDriftAndAHalfSumBesideThemIs) {
  // A damped recurrence: the stored states end subnormal and then zero in float while the fp64 shadow keeps
  // a 1e-250. Measured against the absolute floor of float's smallest normal: no drift, and the figures a
  // finding would print are numbers, not 200 digits. The twin also sums in half: a drift at the sum.
  CheckResult clean = checkNumerics("decay");
  for (const Finding& f : clean.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  std::vector<double> last = values(clean, "final_state");
  EXPECT_EQ(last.front(), 0.0) << "the state did decay to float's zero";

  CheckResult twin = checkNumerics("decay_half_sum");
  ASSERT_EQ(twin.report.findings.size(), 1u);
  const Finding& f = twin.report.findings[0];
  EXPECT_EQ(f.kind, rule::PrecisionDrift);
  EXPECT_EQ(f.buffer, "sums");
  EXPECT_LT(f.title.size(), 300u) << f.title;
  EXPECT_EQ(f.title.find("0000000000"), std::string::npos) << "figures a person reads: " << f.title;
}
