// The prelude computes what the CUDA SDK computes: one kernel using <cstdio>, <cassert>, device printf and
// assert, max/min/abs of floats, doubles, ints and mixed types, compiled with the prelude, against the
// SDK's headers, and in the HIP and MACA dialects: every output equal, and equal to the SDK's definitions
// (fmaxf/fminf for floats, the double overload for mixed float and double).
#include <cmath>
#include <gtest/gtest.h>

#include "frontend/compiler.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

std::string semantics(const std::string& name) { return bundleFile("sdk_semantics", name); }

void expectSdkValues(const CheckResult& r) {
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  auto x = values(r, "x"), f = values(r, "f_out"), d = values(r, "d_out"), i = values(r, "i_out");
  const int n = 48;
  ASSERT_EQ(f.size(), 4u * n);
  for (int k = 0; k < n; ++k) {
    float a = static_cast<float>(x[k]), b = static_cast<float>(x[n - 1 - k]);
    EXPECT_EQ(f[4 * k + 0], std::fmax(a, b)) << k;
    EXPECT_EQ(f[4 * k + 1], std::fmin(a, b)) << k;
    EXPECT_EQ(f[4 * k + 2], std::fmax(a, 0.25f) - std::fmin(b, -0.25f)) << k;
    EXPECT_EQ(f[4 * k + 3], std::fabs(a) + std::fabs(b)) << k;
    EXPECT_EQ(d[2 * k + 0], std::fmax(static_cast<double>(a), static_cast<double>(b))) << k;
    EXPECT_EQ(d[2 * k + 1], std::fmin(static_cast<double>(a), static_cast<double>(b) * 2.0)) << k;
    EXPECT_EQ(i[2 * k + 0], std::max(k - 3, 2)) << k;
    EXPECT_EQ(i[2 * k + 1], std::min(7, k)) << k;
  }
}

}  // namespace

TEST(SdkSemantics, ThePreludeComputesWhatTheSdkDefines) { expectSdkValues(check(semantics("sdk_semantics"))); }

TEST(SdkSemantics, TheSdkHeadersComputeTheSame) {
  if (findCudaSdk().empty()) GTEST_SKIP() << "no CUDA SDK headers";
  CheckResult sdk = check(semantics("sdk_semantics_cuda")), prelude = check(semantics("sdk_semantics"));
  expectSdkValues(sdk);
  for (const char* out : {"f_out", "d_out", "i_out"}) EXPECT_EQ(values(sdk, out), values(prelude, out)) << out;
}

TEST(SdkSemantics, TheHipAndMacaDialectsComputeTheSame) {
  for (const char* dialect : {"sdk_semantics_hip", "sdk_semantics_maca"}) {
    SCOPED_TRACE(dialect);
    expectSdkValues(check(semantics(dialect), "metax-c500"));
  }
}

TEST(SdkSemantics, PrintfWithCstdioPrintsAndAFailedAssertIsFound) {
  Cli ok = runCli("check " + semantics("sdk_semantics"));
  EXPECT_EQ(ok.code, 0) << ok.output;
  EXPECT_NE(ok.output.find("sdk_semantics: 48 elements, x[0] = "), std::string::npos) << ok.output;
  CheckResult failing = check(semantics("sdk_semantics_failing_assert"));
  const Finding* f = find(failing, "device-assert");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("assert(i != 5)"), std::string::npos) << f->title;
}
