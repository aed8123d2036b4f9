// Warp-mask and named-barrier checks (family "sync"): planted bugs found with their lines and lanes;
// correct twins report nothing.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {
std::string syncs(const std::string& name) {
  return std::string(TD_TESTS_DIR) + "/bundles/sync_checks/bundle_" + name + ".toml";
}
}  // namespace

TEST(WarpMasks, MaskLeavingOutTheLanesThatRunIt) {
  CheckResult r = check(syncs("mask_leaves_out"), "nvidia-h200", {}, 10);
  const Finding* f = find(r, "warp-mask", 6);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("0x0000ffff"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("leaves out the calling lane"), std::string::npos) << f->title;
  EXPECT_EQ(f->count, 16u) << "lanes 16-31";
  EXPECT_EQ(f->threads.front().thread[0], 16u);
}

TEST(WarpMasks, FullMaskAfterHalfTheWarpExited) {
  CheckResult r = check(syncs("mask_names_exited"));
  ASSERT_EQ(r.report.findings.size(), 1u);
  EXPECT_EQ(r.report.findings[0].kind, "warp-mask");
  EXPECT_EQ(r.report.findings[0].loc.line, 15u);
  EXPECT_NE(r.report.findings[0].title.find("exited"), std::string::npos);
  EXPECT_TRUE(check(syncs("mask_matches")).report.findings.empty()) << "a mask of exactly the lanes that stay";
}

TEST(WarpMasks, ThirtyTwoBitFullMaskOnAWave64Target) {
  CheckResult r = check(syncs("mask_names_exited"), "metax-c500");
  const Finding* f = find(r, "warp-size-assumption", 15);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("64-lane wave"), std::string::npos);
}

TEST(NamedBarriers, WrongCountDeadlockNamesBothSides) {
  CheckResult r = check(syncs("named_wrong_count"), "nvidia-h200", {}, 10);
  const Finding* f = find(r, "deadlock");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->loc.line, 37u) << "where warp 0 waits";
  std::string notes;
  for (const std::string& n : f->notes) notes += n + "\n";
  EXPECT_NE(notes.find("waits for 96 threads and 64 arrived"), std::string::npos) << notes;
  EXPECT_NE(notes.find("sync_checks.cu:35"), std::string::npos) << "the bar.arrive side: " << notes;
  CheckResult ok = check(syncs("named_right_count"));
  EXPECT_TRUE(ok.report.findings.empty()) << ok.report.findings[0].title;
  auto out = values(ok, "out");
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], 32.0 + t) << "warp 0 reads what warp 1 staged";
}

// A named barrier with a thread count orders a hand-off between warps on NVIDIA; MetaX's MACA does not
// execute it (profile `ignores`): said at the barrier, and the race it leaves is found.
TEST(SyncChecks, APartialBarrierIsIgnoredOnMetaxAndTheHandOffRaces) {
  CheckResult nv = check(bundle("partial_barrier"), "nvidia-h200");
  EXPECT_TRUE(nv.report.findings.empty()) << nv.report.findings.front().title;
  std::vector<double> out = values(nv, "out");
  for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], 63 - i) << "the reversed tile, element " << i;

  CheckResult mx = check(bundle("partial_barrier"), "metax-c500");
  const Finding* ignored = find(mx, "barrier-ignored", 10);
  ASSERT_NE(ignored, nullptr) << mx.report.findings.size();
  EXPECT_NE(ignored->title.find("bar.sync 1, 128"), std::string::npos) << ignored->title;
  EXPECT_NE(ignored->title.find("metax-c500"), std::string::npos);
  const Finding* race = find(mx, "shared-race-raw", 11);
  ASSERT_NE(race, nullptr) << "the read of the tile races with its write across the two waves";
  EXPECT_EQ(race->partner.line, 9u);
  EXPECT_EQ(race->buffer, "tile");
}

// `1u << lane` is a lane's bit with 32-lane warps; on a 64-lane wave lanes 32-63 shift by 32-63.
TEST(WarpMasks, ALaneBitIn32BitsOnAWave64Target) {
  CheckResult nv = check(bundle("lane_bits"), "nvidia-h200");
  EXPECT_TRUE(nv.report.findings.empty()) << nv.report.findings.front().title;
  for (double w : values(nv, "words")) EXPECT_EQ(w, 4294967295.0) << "every lane's bit";
  CheckResult mx = check(bundle("lane_bits"), "metax-c500");
  ASSERT_EQ(mx.report.findings.size(), 1u);
  const Finding& f = mx.report.findings[0];
  EXPECT_EQ(f.kind, "warp-size-assumption");
  EXPECT_EQ(f.loc.line, 5u);
  EXPECT_NE(f.title.find("a 32-bit shift (<<) by 3"), std::string::npos) << f.title;
  EXPECT_EQ(f.count, 64u) << "lanes 32-63 of both waves";
}
