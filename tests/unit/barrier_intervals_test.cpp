// Barrier intervals (checks/race/barrier_intervals): a shared read that no write of its array can share
// a barrier interval with keeps the init check and loses the race check - and only then.
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <map>
#include <vector>

#include "instrument/pipeline.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

// For each source line, the access kinds its __td_race_shared hooks pass (0 read, 1 write; +4 init, +8 race;
// +16 a write whose value the hook gets); a loop's reads checked before it (__td_init_shared_strided) count as
// reads checked for init.
std::map<unsigned, std::set<unsigned>> sharedHookKinds(const std::string& bundlePath, const std::string& checks) {
  Bundle b = loadBundle(bundlePath, {});
  KernelModule km = buildKernelModule(b, CheckSet::parse(checks));
  std::map<unsigned, std::set<unsigned>> kinds;
  for (llvm::Function& f : *km.module)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i); c && c->getCalledFunction()) {
          unsigned line = c->getDebugLoc() ? c->getDebugLoc().getLine() : 0;
          if (c->getCalledFunction()->getName() == "__td_race_shared") {
            // A select between two kinds (checks/race/disjoint_writes.h): both, the launch decides.
            llvm::Value* kind = c->getArgOperand(3);
            auto* choice = llvm::dyn_cast<llvm::SelectInst>(kind);
            for (llvm::Value* k : choice ? std::vector<llvm::Value*>{choice->getTrueValue(), choice->getFalseValue()}
                                         : std::vector<llvm::Value*>{kind})
              kinds[line].insert(static_cast<unsigned>(llvm::cast<llvm::ConstantInt>(k)->getZExtValue()));
          }
          if (c->getCalledFunction()->getName() == "__td_init_shared_strided") kinds[line].insert(0 | 4);
        }
  return kinds;
}

constexpr unsigned kTileStoreA = 20, kTileStoreB = 24, kTileReads = 32;  // examples/gemm/gemm.cu

}  // namespace

TEST(BarrierIntervals, ReadsBetweenBarriersWithNoWriteLoseOnlyTheRaceCheck) {
  auto kinds = sharedHookKinds(example("gemm"), "all");
  EXPECT_EQ(kinds[kTileReads], (std::set<unsigned>{0 | 4})) << "the compute phase reads tiles no thread writes then";
  // The tile stores are the only accesses of their arrays before the barrier, each thread its own elements
  // where the launch's stride spans the block: the race check only where it does not; the init check always.
  EXPECT_EQ(kinds[kTileStoreA], (std::set<unsigned>{1 | 4 | 16, 1 | 4 | 8 | 16})) << "writes say what they store";
  EXPECT_EQ(kinds[kTileStoreB], (std::set<unsigned>{1 | 4 | 16, 1 | 4 | 8 | 16}));
}

TEST(BarrierIntervals, AMissingBarrierPutsTheReadsBesideTheWrites) {
  // examples/gemm/racy_gemm.toml: the same kernel without the barrier between the tile stores and the reads.
  auto kinds = sharedHookKinds(exampleFile("gemm", "racy_gemm"), "all");
  EXPECT_EQ(kinds[kTileReads], (std::set<unsigned>{0 | 4 | 8}));
  EXPECT_EQ(kinds[kTileStoreA], (std::set<unsigned>{1 | 4 | 8 | 16})) << "the reads beside them: every check, always";
}

TEST(BarrierIntervals, OnlyWithTheSyncFamily) {
  // Without the barrier-divergence check nothing vouches that every thread passes the same barriers.
  auto kinds = sharedHookKinds(example("gemm"), "race,init");
  EXPECT_EQ(kinds[kTileReads], (std::set<unsigned>{0 | 4 | 8}));
}

TEST(BarrierIntervals, AnAsynchronousCopysWaitIsAWriteWhereItStands) {
  // tests/bundles/cp_async_wait: the copy lands at cp.async.wait_group (the CPU executor's landing).
  constexpr unsigned kNeighbourRead = 19;
  auto waitedFirst = sharedHookKinds(bundle("cp_async_wait"), "all");
  EXPECT_EQ(waitedFirst[kNeighbourRead], (std::set<unsigned>{0 | 4})) << "waited for before the barrier: no rival";
  auto waitedAfter = sharedHookKinds(std::string(TD_TESTS_DIR) + "/bundles/cp_async_wait/bundle_bug.toml", "all");
  EXPECT_EQ(waitedAfter[kNeighbourRead], (std::set<unsigned>{0 | 4 | 8})) << "the wait after the barrier lands beside the read";
}
