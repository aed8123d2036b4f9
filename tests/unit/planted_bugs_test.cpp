// Every check of the foundation finds its planted bug, with kind, source line, buffer and coordinates.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

TEST(GlobalBounds, EdgeGuardBugAtEverySite) {
  CheckResult r = check(example("gemm_edge_bug"));
  // Three bounds findings, and the race the missing guard causes inside C: an edge block's columns past
  // 258 wrap into the next row, which the next row's block writes too.
  ASSERT_EQ(r.report.findings.size(), 4u);
  const Finding* race = find(r, "global-race-waw", 33);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->buffer, "C");
  const Finding* a = find(r, "global-out-of-bounds", 17);
  const Finding* b = find(r, "global-out-of-bounds", 21);
  const Finding* c = find(r, "global-out-of-bounds", 33);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->buffer, "A");
  EXPECT_EQ(a->access, "read");
  EXPECT_EQ(b->buffer, "B");
  EXPECT_EQ(c->buffer, "C");
  EXPECT_EQ(c->access, "write");
  EXPECT_EQ(c->width, 4u);
  ASSERT_EQ(c->coords.size(), 2u);
  EXPECT_GE(c->coords[0] * 259 + c->coords[1], 259 * 259) << "the reported element lies past the end";
  EXPECT_GT(c->count, 1000u);
  EXPECT_FALSE(c->threads.empty());
  EXPECT_EQ(r.report.exitCode(), 1);
  EXPECT_NE(a->loc.file.find("gemm_noguard.cu"), std::string::npos);
}

TEST(SharedBounds, IndexRunsIntoTheNextArray) {
  CheckResult r = check(bundle("shared_overflow"));
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "shared-out-of-bounds");
  EXPECT_EQ(f.loc.line, 6u);
  EXPECT_EQ(f.buffer, "first");
  EXPECT_EQ(f.coords, std::vector<int64_t>{64});
  EXPECT_EQ(f.count, 64u);  // threads 64..127
  EXPECT_EQ(f.threads.front().thread[0], 64u);
  // `second` is untouched by the bad writes, so its values are what thread t wrote: 2 * in[t].
  auto out = values(r, "out");
  EXPECT_EQ(out[3], 3.0 + 6.0);
}

TEST(SharedBounds, BeyondTheDynamicSharedMemory) {
  CheckResult r = check(bundle("shared_window"));
  const Finding* a = find(r, "shared-out-of-bounds", 6);
  const Finding* b = find(r, "shared-out-of-bounds", 7);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->buffer, "buf");
  EXPECT_EQ(a->coords, std::vector<int64_t>{64});
  EXPECT_EQ(a->count, 32u);
}

TEST(SharedLimit, HopperTileOverMetaxLimitBeforeLaunch) {
  CheckResult r = check(example("tile_too_large"), "metax-c500");
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "shared-memory-limit");
  EXPECT_NE(f.title.find("98304 bytes"), std::string::npos) << f.title;
  EXPECT_NE(f.title.find("metax-c500 allows 65536"), std::string::npos) << f.title;
  EXPECT_FALSE(r.report.launched);
  EXPECT_EQ(r.report.exitCode(), 1);
}

TEST(LaunchLimit, TooManyThreadsPerBlock) {
  CheckResult r = check(bundleFile("reduce", "too_many_threads"), "metax-c550");
  ASSERT_EQ(r.report.findings.size(), 1u);
  EXPECT_EQ(r.report.findings[0].kind, "threads-per-block-limit");
  EXPECT_NE(r.report.findings[0].title.find("2048 threads"), std::string::npos);
  EXPECT_FALSE(r.report.launched);
}

TEST(Alignment, MisalignedGlobalAndSharedVectorAccesses) {
  CheckResult r = check(bundle("misaligned"));
  const Finding* g = find(r, "misaligned-access", 6);
  const Finding* s = find(r, "misaligned-access", 8);
  ASSERT_TRUE(g && s);
  EXPECT_EQ(g->buffer, "in");
  EXPECT_EQ(g->byteOffset, 4);
  EXPECT_EQ(s->buffer, "tile");
  EXPECT_EQ(s->count, 16u);  // odd threads
  EXPECT_EQ(r.report.exitCode(), 1);
}

// A pointer made from an integer: containment skips the store and reports it (on a GPU it faults).
TEST(Robustness, WildPointerIsContainedAndReported) {
  CheckResult r = check(bundle("wild_pointer"));
  const Finding* f = find(r, "wild-access");
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->fatal) << "skipped, and the run went on";
  EXPECT_EQ(f->loc.line, 6u);
  EXPECT_EQ(f->access, "write");
  EXPECT_EQ(f->width, 4u);
  ASSERT_FALSE(f->threads.empty());
  EXPECT_EQ(f->threads[0].thread[0], 5u);
  EXPECT_EQ(f->count, 2u);  // thread 5 of both blocks
  EXPECT_EQ(r.report.exitCode(), 1);
}

TEST(Robustness, AStoreOfAComputedFloatThroughANullPointerIsAWrite) {
  // split_workspace.cu:8 stores a sum through a null workspace: containment reports it so...
  CheckResult contained = check(bundleFile("bisect", "split_workspace"), "nvidia-h200", {{"K", "5000"}});
  const Finding* w = find(contained, "wild-access", 8);
  ASSERT_TRUE(w);
  EXPECT_NE(w->title.find("through a null pointer"), std::string::npos) << w->title;
  // ...and where a store faults all the same (containment off, as bench/ measures it), the host instruction
  // is an AVX move (vmovss [mem], xmm), whose destination Capstone 4 flags as read: decoded as a write.
  setenv("TILE_DOCTOR_BENCH_UNCONTAINED", "1", 1);
  CheckResult r = check(bundleFile("bisect", "split_workspace"), "nvidia-h200", {{"K", "5000"}});
  unsetenv("TILE_DOCTOR_BENCH_UNCONTAINED");
  const Finding* f = find(r, "kernel-fault");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->loc.line, 8u);
  EXPECT_EQ(f->access, "write");
  EXPECT_EQ(f->width, 4u);
}

TEST(Robustness, EndlessLoopStoppedByTimeout) {
  CheckResult r = check(bundle("hang"), "nvidia-h200", {}, 2.0);
  const Finding* f = find(r, "kernel-hang");
  ASSERT_TRUE(f);
  EXPECT_EQ(r.report.exitCode(), 3);
  EXPECT_EQ(f->count, 64u);
  EXPECT_EQ(f->loc.line, 4u) << "the loop that does not end";
}

TEST(Robustness, NamedBarrierDeadlockReportedNotHung) {
  CheckResult r = check(bundle("deadlock"));
  const Finding* f = find(r, "deadlock");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->loc.line, 4u);
  EXPECT_EQ(f->count, 64u);
  EXPECT_EQ(r.report.exitCode(), 3);
}

TEST(Bounds, OneElementBeforeTheStart) {
  CheckResult r = check(bundle("before_start"));
  const Finding* g = find(r, "global-out-of-bounds", 10);
  const Finding* s = find(r, "shared-out-of-bounds", 10);
  ASSERT_TRUE(g && s);
  EXPECT_EQ(g->buffer, "in");
  EXPECT_EQ(g->byteOffset, -4);
  EXPECT_EQ(g->coords, std::vector<int64_t>{-1});
  EXPECT_EQ(g->count, 1u);
  EXPECT_EQ(s->buffer, "row");
  EXPECT_EQ(s->byteOffset, -4);
  EXPECT_EQ(s->count, 1u);
  EXPECT_EQ(g->threads.front().thread[0], 0u);
  auto out = values(r, "out");
  EXPECT_EQ(out[0], 0.0);       // both reads skipped, yielding 0
  EXPECT_EQ(out[5], 4.0 + 4.0);
}

TEST(Channel, OverflowIsCountedAndReported) {
  CheckRequest req;
  req.bundlePath = example("gemm_edge_bug");
  req.launch.jobs = 2;
  req.launch.channelCapacity = 2;
  req.checks = "bounds";  // race counts depend on how the two workers interleave; bounds counts do not
  CheckResult small = runCheck(req);
  req.launch.channelCapacity = 4096;
  CheckResult full = runCheck(req);
  EXPECT_GT(small.report.recordsDropped, 0u);
  EXPECT_EQ(full.report.recordsDropped, 0u);
  ASSERT_EQ(small.report.findings.size(), 3u) << "a site whose records did not fit is still reported";
  // Counts come from the per-site counters, not the channel: exact either way.
  for (const Finding& f : small.report.findings) {
    const Finding* same = find(full, f.kind, f.loc.line);
    ASSERT_TRUE(same);
    EXPECT_EQ(f.count, same->count);
  }
}
