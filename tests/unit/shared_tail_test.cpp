// Which regions a GPU launch keeps in the block's shared tail (runtime/cuda/shared_tail.h): the small ones
// together or not at all, the numerics granules of the shared window only where they cost the SM no block.
// That the device code reads them there is in ptx_test.cpp and the GPU parity run.
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/occupancy.h"
#include "frontend/profile.h"
#include "model/family.h"
#include "model/regions.h"
#include "runtime/cuda/shared_tail.h"
#include "runtime/regions.h"
#include "test_support.h"

using namespace td;
using namespace td::cuda;
using td::test::h100;

namespace {

constexpr uint64_t kLimit = 227 * 1024;  // an H100's opt-in shared memory per block

// Every family's regions, sized as the executor sizes them for a kernel with `window` bytes of shared memory.
std::vector<td_region> sizedForWindow(uint64_t window) {
  std::vector<td_region> table = regionTable({"bounds", "init", "race", "sync", "numerics", "launch"});
  sizeRegions(table, window + 1024, 40);
  return table;
}

bool inShared(const SharedTail& t, unsigned id) { return (t.table[id].flags & TD_REGION_IN_SHARED) != 0; }

// The tail's regions lie one after another inside it, without overlap.
void expectLaidOut(const SharedTail& t, int64_t threads) {
  std::vector<std::pair<uint64_t, uint64_t>> spans;  // [offset, end)
  for (const td_region& r : t.table)
    if (r.flags & TD_REGION_IN_SHARED) {
      EXPECT_EQ(r.shared_offset % 16, 0u);
      spans.emplace_back(r.shared_offset, r.shared_offset + r.bytes * (r.scope == TD_SCOPE_THREAD ? threads : 1));
    }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) EXPECT_GE(spans[i].first, spans[i - 1].second);
  if (!spans.empty()) EXPECT_LE(spans.back().second, t.bytes);
  EXPECT_EQ(t.bytes % 16, 0u);
}

}  // namespace

// The block reduction (1 KiB, 256 threads): at 64 registers a thread 4 blocks an SM, and still 4 with its
// numerics granules (16 KiB) in the tail beside the race history (16 KiB) and the barrier slots.
TEST(SharedTail, TheReductionKeepsItsNumericsGranulesInShared) {
  SharedTail t = planSharedTail(sizedForWindow(1024), 256, 1024, kLimit, h100());
  for (unsigned id : {TD_REGION_BARRIER_SLOTS, TD_REGION_BLOCK_SYNC, TD_REGION_THREAD_SYNC, TD_REGION_SHARED_HISTORY,
                      TD_REGION_SHARED_WRITTEN, TD_REGION_NUM_SHARED})
    EXPECT_TRUE(inShared(t, id)) << id;
  EXPECT_FALSE(inShared(t, TD_REGION_NUM_SITES));
  EXPECT_FALSE(inShared(t, TD_REGION_NUM_LANES)) << "per thread, and asks for no shared memory";
  EXPECT_EQ(occupancyOf({256, int64_t{1024 + 16 + t.bytes}, kCheckedRegistersAtLeast}, h100()).blocksPerSm, 4);
  expectLaidOut(t, 256);
}

// A GEMM's 16 KiB of tiles would take 136 KiB of granules: one block an SM instead of several. The small
// regions stay in the tail, the granules in global memory.
TEST(SharedTail, GranulesThatWouldCostABlockStayInGlobalMemory) {
  SharedTail t = planSharedTail(sizedForWindow(16384), 256, 16384, kLimit, h100());
  EXPECT_TRUE(inShared(t, TD_REGION_SHARED_HISTORY));
  EXPECT_TRUE(inShared(t, TD_REGION_BARRIER_SLOTS));
  EXPECT_FALSE(inShared(t, TD_REGION_NUM_SHARED));
  expectLaidOut(t, 256);
}

// A kernel without shared memory has no granules to keep; a tail whose small regions do not fit is not kept
// at all, granules included.
TEST(SharedTail, NoWindowNoGranulesAndNoRoomNoTail) {
  SharedTail none = planSharedTail(sizedForWindow(0), 256, 0, kLimit, h100());
  EXPECT_FALSE(inShared(none, TD_REGION_NUM_SHARED));
  EXPECT_TRUE(inShared(none, TD_REGION_BARRIER_SLOTS));
  SharedTail full = planSharedTail(sizedForWindow(200 * 1024), 256, 200 * 1024, kLimit, h100());
  EXPECT_EQ(full.bytes, 0u);
  for (const td_region& r : full.table) EXPECT_FALSE(r.flags & TD_REGION_IN_SHARED);
}

// Without any family that asks for shared memory, no tail.
TEST(SharedTail, NothingAsksNothingKept) {
  std::vector<td_region> table = regionTable({"bounds", "launch"});
  sizeRegions(table, 2048, 4);
  EXPECT_EQ(planSharedTail(table, 256, 1024, kLimit, h100()).bytes, 0u);
}
