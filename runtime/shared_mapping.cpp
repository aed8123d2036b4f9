#include "runtime/shared_mapping.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <sys/mman.h>

namespace td {

void* mapShared(size_t bytes) {
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::runtime_error("cannot map memory shared with the kernel's process");
  return m;
}

ChannelSeal sealChannel(td_channel* channel, uint32_t capacity, const std::array<int64_t, 3>& grid,
                        const std::array<int64_t, 3>& block) {
  static std::mt19937_64 draw{std::random_device{}()};
  ChannelSeal s{capacity, draw() | 1, grid, block};  // never 0: a zeroed header must not match
  channel->capacity = capacity;
  channel->cursor = 0;
  std::memcpy(channel->seal, &s.seal, sizeof s.seal);
  return s;
}

namespace {

bool plausible(const td_record& r, const ChannelSeal& s, uint32_t nsites) {
  if (r.kind >= TD_KIND_COUNT || r.site >= nsites) return false;
  for (int d = 0; d < 3; ++d)
    if (r.block[d] >= static_cast<uint64_t>(s.grid[d]) || r.thread[d] >= static_cast<uint64_t>(s.block[d])) return false;
  return true;
}

}  // namespace

void readRecords(LaunchOutcome& out, const td_channel* channel, const ChannelSeal& seal, const uint32_t* hits,
                 uint32_t nsites) {
  uint64_t sealNow = 0;
  std::memcpy(&sealNow, channel->seal, sizeof sealNow);
  uint32_t cursor = channel->cursor;  // read once: the numbers below agree with each other
  out.channelOverwritten = sealNow != seal.seal || channel->capacity != seal.capacity;
  uint32_t written = std::min(cursor, seal.capacity);
  out.records.clear();
  out.records.reserve(written);
  for (uint32_t i = 0; i < written; ++i) {
    if (plausible(channel->records[i], seal, nsites)) out.records.push_back(channel->records[i]);
    else ++out.recordsCorrupt;
  }
  out.recordsDropped = cursor > seal.capacity ? cursor - seal.capacity : 0;
  out.hits.assign(hits, hits + nsites * TD_KIND_COUNT);
  for (uint32_t& h : out.hits) h &= ~TD_HITS_EXTRA_KEPT;  // counts, not the flag
}

}  // namespace td
