// Unordered writes of the same bytes (every thread storing one all-reduced value, every thread staging
// one element) are not races: set aside as benign and named in one note, reported under --strict-races.
// The planted twins, where one thread stores another value, are races on both a 32- and a 64-lane target.
#include <gtest/gtest.h>

#include "sanitizer/benign.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

class SameValueOnTargets : public ::testing::TestWithParam<std::string> {};

std::string sameValue(const std::string& name) { return bundleFile("same_value", name); }

CheckResult strictCheck(const std::string& path, const std::string& target) {
  CheckRequest r;
  r.bundlePath = path;
  r.target = target;
  r.launch.jobs = 2;
  r.launch.timeoutSeconds = 30;
  r.settings["strict-races"] = "on";
  return runCheck(r);
}

const Finding* benign(const CheckResult& r, const std::string& kind, const std::string& buffer) {
  for (const Finding& f : r.report.benign)
    if (f.kind == kind && f.buffer == buffer) return &f;
  return nullptr;
}

}  // namespace

TEST_P(SameValueOnTargets, EveryThreadStoringTheAllReducedMeanIsNoRace) {
  CheckResult r = check(sameValue("layernorm"), GetParam());
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  EXPECT_EQ(r.report.exitCode(), 0);
  const Finding* mean = benign(r, "global-race-same-value", "Mean");
  ASSERT_NE(mean, nullptr) << "the same-value stores are counted, not forgotten";
  EXPECT_NE(benign(r, "global-race-same-value", "Rstd"), nullptr);
  // 6 rows, 256 threads each: every store after a row's first meets an unordered earlier one.
  EXPECT_EQ(mean->count, 6u * 255u);
  std::string note = benignNote(r.report);
  EXPECT_NE(note.find("--strict-races"), std::string::npos) << note;
  EXPECT_NE(note.find("on Mean"), std::string::npos) << note;
  EXPECT_NE(note.find("same_value.cu:"), std::string::npos) << note;
  // The outputs are the layernorm's: every row's mean as a host computes it.
  auto X = values(r, "X"), Mean = values(r, "Mean");
  for (int row = 0; row < 6; ++row) {
    double s = 0;
    for (int c = 0; c < 300; ++c) s += X[row * 300 + c];
    EXPECT_NEAR(Mean[row], s / 300, 1e-5);
  }
}

TEST_P(SameValueOnTargets, OneThreadStoringAnotherMeanIsARace) {
  CheckResult r = check(sameValue("layernorm_different_value"), GetParam());
  const Finding* f = find(r, "global-race-waw");
  ASSERT_NE(f, nullptr) << "a write pair with different values beside same-value ones is a race";
  EXPECT_EQ(f->buffer, "Mean");
  bool thread37 = false;
  for (const Finding& x : r.report.findings)
    for (const ThreadRef& t : x.threads) thread37 |= t.thread[0] == 37 || t.thread[0] == 38;
  EXPECT_TRUE(thread37) << "the pairs named involve the thread that stores another mean";
  EXPECT_EQ(r.report.exitCode(), 1);
}

TEST_P(SameValueOnTargets, EveryThreadStagingTheSameElementIsNoRace) {
  CheckResult r = check(sameValue("gemv"), GetParam());
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  EXPECT_NE(benign(r, "shared-race-same-value", "a_shared"), nullptr);
  auto A = values(r, "A"), B = values(r, "B"), C = values(r, "C");
  for (int n = 0; n < 256; n += 37) {
    double ref = 0;
    for (int k = 0; k < 128; ++k) ref += A[k] * B[n * 128 + k];
    EXPECT_NEAR(C[n], ref, 1e-3);
  }
}

TEST_P(SameValueOnTargets, OneThreadStagingZerosIsARace) {
  CheckResult r = check(sameValue("gemv_different_value"), GetParam());
  const Finding* f = find(r, "shared-race-waw");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->buffer, "a_shared");
}

TEST_P(SameValueOnTargets, StrictRacesReportsSameValueWrites) {
  CheckResult r = strictCheck(sameValue("layernorm"), GetParam());
  EXPECT_TRUE(r.report.benign.empty());
  const Finding* f = find(r, "global-race-same-value");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->buffer, "Mean");
  EXPECT_EQ(r.report.exitCode(), 1);
}

INSTANTIATE_TEST_SUITE_P(SameValueWrites, SameValueOnTargets, ::testing::Values("nvidia-h200", "metax-c500"));

TEST(SameValueWrites, TheCliNamesThemInOneNoteAndJsonListsThem) {
  Cli text = runCli("check " + sameValue("gemv"));
  EXPECT_EQ(text.code, 0) << text.output;
  EXPECT_NE(text.output.find("note: set aside as benign"), std::string::npos) << text.output;
  Cli json = runCli("check " + sameValue("gemv") + " --format json");
  EXPECT_NE(json.output.find("\"benign\""), std::string::npos) << json.output;
  Cli strict = runCli("check " + sameValue("gemv") + " --strict-races");
  EXPECT_EQ(strict.code, 1) << strict.output;
  Cli noRace = runCli("check " + sameValue("gemv") + " --checks bounds --strict-races");
  EXPECT_EQ(noRace.code, 2) << "the race family's setting without the race family is bad input";
}

// Clang makes a float4 or struct assignment a 16-byte copy; checked as the assignment it is.
TEST(SameValueWrites, ASixteenByteAssignmentIsAStoreOfItsValue) {
  CheckResult r = check(sameValue("vector_copy"));
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  EXPECT_NE(benign(r, "global-race-same-value", "A"), nullptr);
  CheckResult twin = check(sameValue("vector_copy_different_value"));
  const Finding* waw = find(twin, "global-race-waw");
  ASSERT_NE(waw, nullptr);
  EXPECT_EQ(waw->access, "write") << "a copy's destination is written, not read";
  EXPECT_NE(waw->title.find("since the write by"), std::string::npos) << waw->title;
}
