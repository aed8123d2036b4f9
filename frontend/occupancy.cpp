#include "frontend/occupancy.h"

#include <algorithm>
#include <fmt/format.h>

namespace td {

namespace {

int64_t roundUp(int64_t v, int64_t unit) { return unit > 0 ? (v + unit - 1) / unit * unit : v; }

// Shared memory one block takes from its SM: its bytes rounded to the unit, and the runtime's reserve.
int64_t sharedTaken(int64_t shared, const Profile& p) { return roundUp(shared + p.reservedSharedPerBlock, p.sharedAllocUnit); }

// Registers one warp takes: per thread times the warp, rounded to the allocation unit.
int64_t warpRegisters(int64_t perThread, const Profile& p) { return roundUp(perThread * p.warpSize, p.registerAllocUnit); }

}  // namespace

Occupancy occupancyOf(const LaunchResources& l, const Profile& p) {
  Occupancy o;
  const char* sm = p.vendor == "MetaX" ? "CU" : "SM";
  const char* warps = p.vendor == "MetaX" ? "waves" : "warps";  // MACA's name for its 64-thread warp
  o.warpsPerBlock = (l.threadsPerBlock + p.warpSize - 1) / p.warpSize;
  o.maxWarps = p.threadsPerSm / p.warpSize;
  if (o.warpsPerBlock <= 0) return o;
  o.limits.push_back({"warps", o.maxWarps / o.warpsPerBlock,
                      fmt::format("{} {} of {} threads a block, {} {} per {}", o.warpsPerBlock, warps, p.warpSize, o.maxWarps, warps, sm)});
  if (p.blocksPerSm > 0) o.limits.push_back({"blocks", p.blocksPerSm, fmt::format("at most {} blocks per {}", p.blocksPerSm, sm)});
  else o.notCounted.push_back(fmt::format("blocks per {} (not known for {})", sm, p.name));
  if (l.sharedPerBlock > 0 || p.reservedSharedPerBlock > 0) {
    int64_t taken = sharedTaken(l.sharedPerBlock, p);
    o.limits.push_back({"shared memory", taken > 0 ? p.sharedPerSm / taken : 0,
                        fmt::format("{} bytes a block ({} + {} reserved, in units of {}) of {} per {}", taken, l.sharedPerBlock,
                                    p.reservedSharedPerBlock, std::max<int64_t>(p.sharedAllocUnit, 1), p.sharedPerSm, sm)});
  }
  if (l.registersPerThread > 0 && p.registersPerSm > 0) {
    int64_t perWarp = warpRegisters(l.registersPerThread, p);
    o.limits.push_back({"registers", p.registersPerSm / perWarp / o.warpsPerBlock,
                        fmt::format("{} registers a thread, {} a warp (in units of {}), of {} per {}", l.registersPerThread,
                                    perWarp, std::max<int64_t>(p.registerAllocUnit, 1), p.registersPerSm, sm)});
  } else {
    o.notCounted.push_back(l.registersPerThread > 0 ? "registers (the profile has no register file size)"
                                                    : fmt::format("registers (no compiler figure for {})", p.name));
  }
  o.blocksPerSm = o.limits.front().blocks;
  for (const ResourceLimit& r : o.limits) o.blocksPerSm = std::min(o.blocksPerSm, r.blocks);
  for (const ResourceLimit& r : o.limits)
    if (r.blocks == o.blocksPerSm) o.limiting.push_back(r.resource);
  o.activeWarps = o.blocksPerSm * o.warpsPerBlock;
  o.occupancy = o.maxWarps > 0 ? double(o.activeWarps) / double(o.maxWarps) : 0;

  // One more block: what each limiting resource would have to come down to.
  int64_t next = o.blocksPerSm + 1;
  std::vector<std::string> needs;
  for (const std::string& r : o.limiting) {
    if (r == "warps") {
      int64_t threads = o.maxWarps / next * p.warpSize;
      needs.push_back(threads > 0 ? fmt::format("at most {} threads a block", threads) : "fewer threads than a warp");
    } else if (r == "blocks") {
      needs.push_back(fmt::format("none: {} blocks per {} is the hardware's most", p.blocksPerSm, sm));
    } else if (r == "shared memory") {
      int64_t unit = std::max<int64_t>(p.sharedAllocUnit, 1);
      int64_t fits = p.sharedPerSm / next / unit * unit - p.reservedSharedPerBlock;
      needs.push_back(fits > 0 ? fmt::format("at most {} bytes of shared memory a block", fits)
                               : "less shared memory than the reserve allows");
    } else if (r == "registers") {
      int64_t unit = std::max<int64_t>(p.registerAllocUnit, 1);
      int64_t perWarp = p.registersPerSm / o.warpsPerBlock / next / unit * unit;
      needs.push_back(fmt::format("at most {} registers a thread", perWarp / p.warpSize));
    }
  }
  if (o.blocksPerSm == 0) o.toRaise = fmt::format("one block does not fit on one {}", sm);
  else o.toRaise = fmt::format("{} blocks per {} need {}", next, sm, fmt::join(needs, " and "));
  return o;
}

}  // namespace td
