// Init checks moved before their loops (checks/race/hoisted_init_reads.h): which reads move, and that the
// moved checks find what the per-read checks find — the same element, line and count (every thread that reads it) — and
// nothing in loops that read only what was written.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "instrument/pipeline.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

std::string loops(const std::string& name) { return std::string(TD_TESTS_DIR) + "/bundles/init_loops/bundle_" + name + ".toml"; }

// How many calls of `hook` the kernel's instrumented module makes, under `checks`.
int callsOf(const std::string& bundlePath, const std::string& checks, const std::string& hook) {
  Bundle b = loadBundle(bundlePath, {});
  KernelModule km = buildKernelModule(b, CheckSet::parse(checks));
  int n = 0;
  for (llvm::Function& f : *km.module)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i); c && c->getCalledFunction() && c->getCalledFunction()->getName() == hook)
          ++n;
  return n;
}

}  // namespace

TEST(HoistedInitReads, QuietLoopReadsAreCheckedBeforeTheirLoop) {
  // The GEMM's compute loop: four reads of As, one vector read of Bs, none left in the loop.
  EXPECT_EQ(callsOf(example("gemm"), "all", "__td_init_shared_strided"), 5);
  for (const char* name : {"sum_missing_one", "reverse_stride_missing", "column_sum_padded", "prefix_of_tile", "every_third_half"})
    EXPECT_GE(callsOf(loops(name), "all", "__td_init_shared_strided"), 1) << name;
}

TEST(HoistedInitReads, OnlyWhereEveryElementCheckedIsRead) {
  // A loop with a second exit (the search's break) may stop before an element; a loop that writes its array
  // is no quiet read's; without the sync family nothing vouches for the barrier intervals.
  EXPECT_EQ(callsOf(loops("search_stops_early"), "all", "__td_init_shared_strided"), 0);
  EXPECT_EQ(callsOf(loops("writes_then_reads_in_loop"), "all", "__td_init_shared_strided"), 0);
  EXPECT_EQ(callsOf(loops("sum_missing_one"), "init,launch", "__td_init_shared_strided"), 0);
  EXPECT_EQ(callsOf(exampleFile("gemm", "racy_gemm"), "all", "__td_init_shared_strided"), 0) << "the reads may race";
}

TEST(HoistedInitReads, MovedChecksFindWhatPerReadChecksFind) {
  // "init,launch" keeps every read's own check (no sync family): the reference.
  // The three ways the elements are looked at: a span (in order), whole granules (every third float, backwards),
  // and bytes within granules (every third half-word).
  for (auto [name, element] : {std::pair{"sum_missing_one", 37}, std::pair{"reverse_stride_missing", 45},
                               std::pair{"every_third_half_missing", 201}}) {
    CheckResult moved = checkWith(loops(name), "all"), perRead = checkWith(loops(name), "init,launch");
    ASSERT_EQ(moved.report.findings.size(), 1u) << name;
    ASSERT_EQ(perRead.report.findings.size(), 1u) << name;
    const Finding &m = moved.report.findings[0], &p = perRead.report.findings[0];
    EXPECT_EQ(m.kind, "uninitialized-shared-read") << name;
    EXPECT_EQ(m.buffer, std::string(name).find("half") == std::string::npos ? "tile" : "h");
    EXPECT_EQ(m.element, element) << name;
    EXPECT_EQ(m.count, 128u) << name << ": every thread of both blocks reads it once";
    EXPECT_EQ(m.loc.line, p.loc.line) << name;
    EXPECT_EQ(m.element, p.element);
    EXPECT_EQ(m.count, p.count);
  }
}

TEST(HoistedInitReads, LoopsReadingOnlyWrittenElementsStayClean) {
  for (const char* name : {"column_sum_padded", "search_stops_early", "bounded_reads", "writes_then_reads_in_loop", "every_third_half",
                           "prefix_of_tile"}) {
    CheckResult r = checkWith(loops(name), "all");
    EXPECT_TRUE(r.report.findings.empty()) << name << ": " << r.report.findings[0].title;
  }
  CheckResult gemm = checkWith(example("gemm"), "all");
  EXPECT_TRUE(gemm.report.findings.empty());
}
