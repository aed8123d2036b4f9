#include "checks/sync/wait_board.h"

#include <map>

#include "instrument/ptx_catalogue.h"
#include "model/regions.h"
#include "checks/sync/sync_abi.h"
#include "model/abi.h"

namespace td {

namespace {

ThreadRef threadAt(uint64_t block, uint64_t thread, const int64_t grid[3], const int64_t dims[3]) {
  ThreadRef t;
  t.block[0] = static_cast<uint32_t>(block % grid[0]);
  t.block[1] = static_cast<uint32_t>(block / grid[0] % grid[1]);
  t.block[2] = static_cast<uint32_t>(block / grid[0] / grid[1]);
  t.thread[0] = static_cast<uint32_t>(thread % dims[0]);
  t.thread[1] = static_cast<uint32_t>(thread / dims[0] % dims[1]);
  t.thread[2] = static_cast<uint32_t>(thread / dims[0] / dims[1]);
  return t;
}

bool waiting(uint32_t word) { return word != 0 && !(word & (TD_WAIT_ARRIVED | TD_WAIT_EXITED)); }

// A counted barrier's id and thread count, where its statement names them as immediates (bar.sync 1, 96).
void describeBarrier(const Site& s, Waiter& w) {
  std::optional<PtxStatement> st = parsePtx(s.what);
  if (!st || st->op != PtxOp::Barrier || !st->hasCount || st->mode < 0) return;
  w.barrierId = st->count >= 0 ? static_cast<uint32_t>(st->count) : 0;
  w.expected = static_cast<uint32_t>(st->mode);
}

}  // namespace

std::vector<Waiter> waitersFromBoard(const uint32_t* board, uint64_t words, const int64_t grid[3], const int64_t dims[3],
                                     const SiteTable& sites) {
  std::vector<Waiter> out;
  uint64_t threads = static_cast<uint64_t>(dims[0] * dims[1] * dims[2]);
  uint64_t blocks = static_cast<uint64_t>(grid[0] * grid[1] * grid[2]);
  if (threads == 0 || blocks * threads != words) return out;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint32_t* block = board + b * threads;
    std::map<uint32_t, uint32_t> atSite;  // waiting threads per barrier site
    uint32_t arrivedOnly = 0, arriveSite = ~0u;
    for (uint64_t t = 0; t < threads; ++t) {
      if (waiting(block[t])) ++atSite[block[t] - 1];
      if (block[t] & TD_WAIT_ARRIVED) {
        ++arrivedOnly;
        arriveSite = (block[t] & ~(TD_WAIT_ARRIVED | TD_WAIT_EXITED)) - 1;
      }
    }
    if (atSite.empty()) continue;  // a block nobody waits in: running or done
    for (uint64_t t = 0; t < threads; ++t) {
      uint32_t word = block[t];
      if (word & TD_WAIT_EXITED) continue;
      Waiter w;
      w.thread = threadAt(b, t, grid, dims);
      if (waiting(word) && word - 1 < sites.sites.size()) {
        w.state = Waiter::AtBarrier;
        w.site = word - 1;
        describeBarrier(sites.sites[w.site], w);
        w.arrived = atSite[w.site] + arrivedOnly;
        w.arriveSite = arriveSite;
      }
      out.push_back(w);
    }
  }
  return out;
}

void waitersFromReadback(LaunchOutcome& out, const SiteTable& sites, const Bundle& b) {
  if (out.status != LaunchOutcome::TimedOut || !out.waiters.empty()) return;
  for (const RegionReadback& r : out.readbacks)
    if (r.id == TD_REGION_WAIT_BOARD)
      out.waiters = waitersFromBoard(reinterpret_cast<const uint32_t*>(r.bytes.data()), r.bytes.size() / 4,
                                     b.grid.data(), b.block.data(), sites);
}

}  // namespace td
