#include "runtime/shared_mapping.h"

#include <algorithm>
#include <stdexcept>
#include <sys/mman.h>

namespace td {

void* mapShared(size_t bytes) {
  void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::runtime_error("cannot map memory shared with the kernel's process");
  return m;
}

void readRecords(LaunchOutcome& out, const td_channel* channel, const uint32_t* hits, uint32_t nsites) {
  uint32_t written = std::min(channel->cursor, channel->capacity);
  out.records.assign(channel->records, channel->records + written);
  out.recordsDropped = channel->cursor > channel->capacity ? channel->cursor - channel->capacity : 0;
  out.hits.assign(hits, hits + nsites * TD_KIND_COUNT);
  for (uint32_t& h : out.hits) h &= ~TD_HITS_EXTRA_KEPT;  // counts, not the flag
}

}  // namespace td
