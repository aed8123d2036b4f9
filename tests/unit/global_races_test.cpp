// Global-memory race and uninitialised-read checks: each planted bug is found with both source lines and
// the partner's thread and block; each correct twin reports nothing.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {
std::string globals(const std::string& name) {
  return std::string(TD_TESTS_DIR) + "/bundles/global_races/bundle_" + name + ".toml";
}

const Finding& expectOne(const CheckResult& r, const std::string& kind, unsigned line) {
  const Finding* f = find(r, kind, line);
  EXPECT_NE(f, nullptr) << kind << " at line " << line;
  static Finding none;
  return f ? *f : none;
}
}  // namespace

TEST(GlobalRaces, BlocksWritingTheSameElements) {
  CheckResult r = check(globals("share_row"));
  ASSERT_EQ(r.report.findings.size(), 1u) << "one finding for the site pair, not one per element";
  const Finding& f = expectOne(r, "global-race-waw", 6);
  EXPECT_EQ(f.buffer, "out");
  EXPECT_EQ(f.partner.line, 6u);
  EXPECT_EQ(f.count, 64u * 3) << "every element written by four blocks: three unordered second writes each";
  EXPECT_NE(f.title.find("of block"), std::string::npos);
  EXPECT_NE(f.title.find("unordered with"), std::string::npos) << f.title;
}

TEST(GlobalRaces, PlainIncrementOfACounter) {
  CheckResult r = check(globals("plain_counter"));
  const Finding& raw = expectOne(r, "global-race-raw", 17);
  EXPECT_EQ(raw.buffer, "count");
  EXPECT_EQ(raw.partner.line, 17u);
  expectOne(r, "global-race-waw", 17);
  EXPECT_LT(values(r, "count")[0], 128.0 + 1) << "the CPU runs it; the value is whatever the schedule made";
}

TEST(GlobalRaces, PlainReadOfAnAtomicallyUpdatedSlot) {
  CheckResult r = check(globals("plain_read"));
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_TRUE(f.kind == "global-race-war" || f.kind == "global-race-raw") << f.kind;
  EXPECT_EQ(f.buffer, "slot");
  // The two lines: the atomicAdd (28) and the plain read (29), in whichever order the schedule met them.
  EXPECT_TRUE((f.loc.line == 28u && f.partner.line == 29u) || (f.loc.line == 29u && f.partner.line == 28u))
      << f.loc.line << " / " << f.partner.line;
  EXPECT_TRUE(f.loc.helper.empty()) << "atomicAdd is the user's call, not a header's: " << f.loc.helper;
}

TEST(GlobalRaces, ReadOfAnUninitialisedOutput) {
  CheckResult r = check(globals("accumulate_uninit"));
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "uninitialized-global-read");
  EXPECT_EQ(f.loc.line, 43u);
  EXPECT_EQ(f.buffer, "out");
  EXPECT_EQ(f.count, 256u) << "every element read before its write";
}

TEST(GlobalRaces, CorrectTwinsReportNothing) {
  for (const char* name : {"own_rows", "atomic_counter", "read_after_barrier", "write_then_scale"}) {
    CheckResult r = check(globals(name));
    EXPECT_TRUE(r.report.findings.empty()) << name << ": " << r.report.findings[0].title;
  }
  EXPECT_EQ(values(check(globals("atomic_counter")), "count")[0], 128.0);
  EXPECT_EQ(values(check(globals("read_after_barrier")), "seen")[0], 127.0 * 128 / 2);
}

TEST(GlobalRaces, FamiliesSelectTheChecks) {
  CheckRequest req;
  req.bundlePath = globals("accumulate_uninit");
  req.checks = "race";
  EXPECT_TRUE(runCheck(req).report.findings.empty()) << "uninitialised reads are the init family's";
  req.bundlePath = globals("share_row");
  req.checks = "init";
  EXPECT_TRUE(runCheck(req).report.findings.empty()) << "races are the race family's";
}

// A CAS loop's plain first read is checked by the CAS: no race with the other threads' CASes (the CUDA
// programming guide's double atomicAdd; the SDK's bf16 atomicAdd below sm_90). A plain read-modify-write
// of the same sum is a lost update.
TEST(GlobalRaces, ACompareAndSwapLoopIsNoRaceAndAPlainUpdateIs) {
  CheckResult r = check(bundleFile("cas_loop", "sum_by_cas"));
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  EXPECT_EQ(values(r, "sum")[0], 150.0);
  CheckResult twin = check(bundleFile("cas_loop", "sum_plainly"));
  EXPECT_NE(find(twin, "global-race-raw"), nullptr);
}

// atomicCAS on unsigned short (the SDK declares __usAtomicCAS and leaves it to nvcc; tile-doctor defines it
// for clang): two counters in the halves of one word, each counted by a CAS loop, neither disturbing the
// other; the loops' first reads are no race.
TEST(GlobalRaces, SixteenBitCompareAndSwapCountsEachHalf) {
  CheckResult r = check(bundle("ushort_cas"));
  for (const Finding& f : r.report.findings) ADD_FAILURE() << f.kind << ": " << f.title;
  auto counts = values(r, "counts");
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0], 128);
  EXPECT_EQ(counts[1], 128);
}
