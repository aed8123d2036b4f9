// GPU hang reports without a GPU: a wait board as the device runtime leaves it when a named barrier's
// count is wrong (tests/bundles/sync_checks: 32 threads wait at `bar.sync 1, 96`, 32 passed
// `bar.arrive 1, 96` and returned) becomes the waiters and the finding the CPU scheduler would give,
// with both lines; a board where every thread returned, or nobody waits, names no one.
#include <gtest/gtest.h>

#include "model/abi.h"
#include "checks/sync/sync_abi.h"
#include "checks/sync/wait_board.h"
#include "sanitizer/collector.h"

using namespace td;

namespace {

constexpr uint32_t kWaitSite = 0, kArriveSite = 1;

SiteTable barrierSites() {
  SiteTable t;
  Site wait;
  wait.kind = SiteKind::AsmStatement;
  wait.loc = {"sync_checks.cu", 37, 5, "named_barrier_wrong_count", "", ""};
  wait.what = "bar.sync 1, 96;";
  Site arrive = wait;
  arrive.loc.line = 35;
  arrive.what = "bar.arrive 1, 96;";
  t.sites = {wait, arrive};
  return t;
}

std::vector<uint32_t> wrongCountBoard() {
  std::vector<uint32_t> board(64);
  for (int t = 0; t < 32; ++t) board[t] = kWaitSite + 1;
  for (int t = 32; t < 64; ++t) board[t] = TD_WAIT_ARRIVED | TD_WAIT_EXITED | (kArriveSite + 1);
  return board;
}

const int64_t kGrid[3] = {1, 1, 1}, kBlock[3] = {64, 1, 1};

}  // namespace

TEST(WaitBoard, NamedBarrierWithAWrongCountNamesBothSides) {
  std::vector<uint32_t> board = wrongCountBoard();
  SiteTable sites = barrierSites();
  std::vector<Waiter> waiters = waitersFromBoard(board.data(), board.size(), kGrid, kBlock, sites);
  ASSERT_EQ(waiters.size(), 32u) << "the threads that returned are not waiters";
  for (const Waiter& w : waiters) {
    EXPECT_EQ(w.state, Waiter::AtBarrier);
    EXPECT_EQ(w.site, kWaitSite);
    EXPECT_EQ(w.barrierId, 1u);
    EXPECT_EQ(w.expected, 96u);
    EXPECT_EQ(w.arrived, 64u) << "32 waiting and 32 that arrived without waiting";
    EXPECT_EQ(w.arriveSite, kArriveSite);
  }
  EXPECT_EQ(waiters[5].thread.thread[0], 5u);

  LaunchOutcome out;
  out.status = LaunchOutcome::TimedOut;
  out.message = "the kernel ran longer than 5 s on the GPU and was stopped";
  out.waiters = waiters;
  std::vector<Finding> findings = collectFindings(out, sites, Bundle{});
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.kind, "kernel-hang");
  EXPECT_EQ(f.loc.line, 37u);
  std::string notes;
  for (const std::string& n : f.notes) notes += n + "\n";
  EXPECT_NE(notes.find("32 threads (first: thread (0,0,0) of block (0,0,0)) waiting at bar.sync 1, 96;"), std::string::npos) << notes;
  EXPECT_NE(notes.find("waits for 96 threads and 64 arrived"), std::string::npos) << notes;
  EXPECT_NE(notes.find("sync_checks.cu:35:5"), std::string::npos) << "the other side: " << notes;
}

TEST(WaitBoard, NobodyWaitingNamesNoOne) {
  SiteTable sites = barrierSites();
  std::vector<uint32_t> done(64, TD_WAIT_EXITED);
  EXPECT_TRUE(waitersFromBoard(done.data(), done.size(), kGrid, kBlock, sites).empty());
  std::vector<uint32_t> running(64, 0);  // a loop that never ends: no barrier to name
  EXPECT_TRUE(waitersFromBoard(running.data(), running.size(), kGrid, kBlock, sites).empty());
}
