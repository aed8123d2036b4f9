// Shared-memory race and initialisation checks (CPU executor): each planted bug is found with both
// source lines; the correct twins and correct patterns (arena reuse across a barrier, atomics,
// __syncwarp-ordered warp reduction) report nothing.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {
std::string races(const std::string& name) { return std::string(TD_TESTS_DIR) + "/bundles/races/bundle_" + name + ".toml"; }

void expectRace(const CheckResult& r, const std::string& kind, unsigned line, unsigned otherLine, const std::string& buffer) {
  const Finding* f = find(r, kind, line);
  ASSERT_NE(f, nullptr) << kind << " at line " << line;
  EXPECT_EQ(f->partner.line, otherLine) << f->title;
  EXPECT_EQ(f->buffer, buffer);
  EXPECT_FALSE(f->threads.empty());
  EXPECT_GE(f->count, 1u);
}
}  // namespace

TEST(SharedRaces, MissingBarrierBetweenTileLoadAndUse) {
  CheckResult r = check(bundle("missing_barrier"));
  expectRace(r, "shared-race-raw", 10, 6, "tile");
}

TEST(SharedRaces, DoubleBufferWithoutItsTrailingBarrier) {
  CheckResult r = check(races("double_buffer"));
  expectRace(r, "shared-race-war", 25, 26, "buf");
  EXPECT_TRUE(check(races("double_buffer_fixed")).report.findings.empty());
}

TEST(SharedRaces, TwoThreadsWriteOneSlot) {
  CheckResult r = check(races("two_writers"));
  expectRace(r, "shared-race-waw", 9, 9, "slot");
  EXPECT_EQ(find(r, "shared-race-waw")->count, 64u) << "one per slot: the second writer of each of 64 slots";
  // races.cu holds ten kernels; the launch uses (and the limit check counts) only this one's 256 bytes.
  EXPECT_EQ(r.report.staticShared, 256);
}

TEST(SharedRaces, WarpReductionWithoutSyncwarp) {
  CheckResult r = check(races("warp_reduce"));
  // Lane 0 runs ahead (nothing holds it) and reads s[1] before lane 1 stored it: the store races with the read.
  expectRace(r, "shared-race-war", 39, 44, "s");
  EXPECT_TRUE(check(races("warp_reduce_fixed")).report.findings.empty()) << "__syncwarp orders the lanes";
}

// Lane 0 resets a counter after a __syncwarp and every lane adds to it with no __syncwarp between. The GPU
// runs the reset's branch and the other lanes by turns, which once hid this race there (tests/gpu/parity.py
// runs this bundle on both executors).
TEST(SharedRaces, CounterResetRacesWithTheOtherLanesAtomics) {
  CheckResult r = check(races("warp_counter_reset"));
  expectRace(r, "shared-race-waw", 121, 117, "count");
  CheckResult fixed = check(races("warp_counter_reset_fixed"));
  EXPECT_TRUE(fixed.report.findings.empty()) << "a __syncwarp orders the reset before the atomics";
  for (double v : values(fixed, "out")) EXPECT_EQ(v, 496.0) << "the sum of 0..31";
}

TEST(SharedRaces, UninitializedSharedRead) {
  CheckResult r = check(races("uninit_tile"));
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "uninitialized-shared-read");
  EXPECT_EQ(f.loc.line, 62u);
  EXPECT_EQ(f.buffer, "tile");
  EXPECT_EQ(f.coords, (std::vector<int64_t>{127}));
  EXPECT_EQ(f.count, 8u) << "threads 0..7 read tile[127..120], which threads 120..127 never wrote";
}

// The init check's per-chunk count of written bytes lets reads of written-through chunks skip their
// granules; bytes stored again must not count again, or a chunk short of a few bytes would look written.
TEST(SharedRaces, UninitialisedBytesAmongRewrittenOnesAreFound) {
  for (const char* checks : {"init,launch", "all"}) {
    CheckResult r = checkWith(races("uninit_one_of_many"), checks);
    ASSERT_EQ(r.report.findings.size(), 1u) << checks;
    const Finding& f = r.report.findings[0];
    EXPECT_EQ(f.kind, "uninitialized-shared-read");
    EXPECT_EQ(f.buffer, "tile");
    EXPECT_EQ(f.count, 384u) << checks << ": 128 threads read each of tile[77], tile[300] and tile[301]";
  }
}

TEST(SharedRaces, CorrectPatternsReportNothing) {
  for (const char* name : {"arena_reuse", "histogram"}) {
    CheckResult r = check(races(name));
    EXPECT_TRUE(r.report.findings.empty()) << name << ": " << r.report.findings[0].title;
  }
  auto bins = values(check(races("histogram")), "out");
  for (double b : bins) EXPECT_EQ(b, 8.0) << "128 values spread over 16 bins";
}

// Lanes of one warp storing the two halves of a word in one store do not race; two lanes of one warp storing
// the same half do, and the half neither stored is read uninitialised (tests/gpu/parity.py runs both bundles on
// the GPU, where such lanes update one history granule at once).
// A tile load's stride decides whether threads share elements: with the block's own stride each thread's
// elements are its own, and the store takes no race check (disjoint_writes.h); half that stride, or a second
// row of threads the index leaves out, and two threads store one element: the check stays for that launch.
TEST(SharedRaces, ATileLoadThatGivesTwoThreadsOneElementRacesAndOneThatDoesNotIsClean) {
  CheckResult clean = check(races("tile_load"));
  EXPECT_TRUE(clean.report.findings.empty());
  std::vector<double> out = values(clean, "out");
  ASSERT_EQ(out.size(), 1024u);
  EXPECT_EQ(out[300], 300.0 + 300 % 256) << "in[300] plus the storing thread's x";
  CheckResult half = check(races("tile_load_half_stride"));
  expectRace(half, "shared-race-waw", 166, 166, "tile");
  EXPECT_EQ(find(half, "shared-race-waw")->count, 768u) << "elements 128..511 of each block, each stored twice";
  expectRace(check(races("tile_load_2d")), "shared-race-waw", 166, 166, "tile");
  // The store without its race check still tells the init check what it wrote: the half it leaves out is
  // read before any thread wrote it.
  CheckResult sparse = check(races("tile_load_sparse"));
  ASSERT_EQ(sparse.report.findings.size(), 1u);
  EXPECT_EQ(sparse.report.findings[0].kind, "uninitialized-shared-read");
  EXPECT_EQ(sparse.report.findings[0].count, 512u) << "tile[256..511], read once in each of the two blocks";
}

// A block sum's tree reads and writes its array between the same barriers, yet each thread writes only its
// own element and no other thread of the step reads it: the accesses take no race check (own_bytes.h). A
// guard one too wide or a missing barrier lets two threads meet, and the check stays.
TEST(SharedRaces, AReductionTreeIsCleanAndItsTwoCommonMistakesRace) {
  CheckResult clean = check(races("tree_sum"));
  EXPECT_TRUE(clean.report.findings.empty());
  std::vector<double> out = values(clean, "out");
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[1], 256.0 * 256 + 255.0 * 256 / 2) << "the sum of 256..511";
  CheckResult wide = check(races("tree_sum_guard_one_too_wide"));
  expectRace(wide, "shared-race-war", 184, 184, "buf");
  CheckResult unordered = check(races("tree_sum_no_barrier"));
  expectRace(unordered, "shared-race-war", 186, 186, "buf");
  expectRace(unordered, "shared-race-raw", 186, 186, "buf");
}

TEST(SharedRaces, WarpMatesStoringOneWord) {
  EXPECT_TRUE(check(races("half_pairs")).report.findings.empty());
  CheckResult r = check(races("half_pairs_overlap"));
  ASSERT_EQ(r.report.findings.size(), 2u);
  expectRace(r, "shared-race-waw", 152, 152, "h");
  const Finding* waw = find(r, "shared-race-waw");
  EXPECT_EQ(waw->coords, (std::vector<int64_t>{30}));
  EXPECT_EQ(waw->count, 16u) << "lane 31 of each of 8 warps in 2 blocks";
  const Finding* uninit = find(r, "uninitialized-shared-read");
  ASSERT_NE(uninit, nullptr);
  EXPECT_EQ(uninit->coords, (std::vector<int64_t>{31}));
  EXPECT_EQ(uninit->count, 16u) << "lane 30 of each warp reads the half lane 31 left";
}

TEST(SharedRaces, RacyGemmGivesOneFindingPerSitePairAndAShortReport) {
  Cli r = runCli("check " + exampleFile("gemm", "racy_gemm"));
  EXPECT_EQ(r.code, 1);
  int lines = 0;
  for (char c : r.output) lines += c == '\n';
  EXPECT_LT(lines, 44) << r.output;  // six findings, each at most seven lines, the benign note and the summary
  EXPECT_NE(r.output.find("shared-race-raw"), std::string::npos);
  EXPECT_NE(r.output.find("gemm.cu:32"), std::string::npos) << "the read of the tile";
  EXPECT_NE(r.output.find("gemm.cu:20"), std::string::npos) << "the store into it";
}

TEST(Barriers, BarrierUnderAThreadDependentBranch) {
  CheckResult r = check(races("divergent_barrier"));
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "barrier-divergence");
  // Both barriers, whichever group the schedule brought first: the one under the branch (98) and the next (102).
  EXPECT_TRUE((f.loc.line == 102u && f.partner.line == 98u) || (f.loc.line == 98u && f.partner.line == 102u))
      << f.title;
  EXPECT_FALSE(f.threads.empty());
  CheckResult exits = check(races("divergent_exit"));
  ASSERT_EQ(exits.report.findings.size(), 1u);
  EXPECT_EQ(exits.report.findings[0].kind, "barrier-divergence");
  EXPECT_NE(exits.report.findings[0].title.find("without all 256 threads"), std::string::npos) << exits.report.findings[0].title;
  EXPECT_NE(exits.report.findings[0].title.find("thread (128,0,0)"), std::string::npos);
}
