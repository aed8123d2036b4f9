#include "runtime/regions.h"

namespace td {

bool present(const td_region& r) { return (r.flags & TD_REGION_PRESENT) != 0; }

bool readBackAfterLaunch(const td_region& r) {
  return present(r) && (r.flags & TD_REGION_READ_BACK) && r.scope == TD_SCOPE_GRID;
}

bool buffersReadBack(const td_region& r) {
  return present(r) && (r.flags & TD_REGION_READ_BACK) && r.scope == TD_SCOPE_BUFFER;
}

uint64_t regionInstanceBytes(const td_region& r, uint64_t measured, uint64_t nsites) {
  bool counted = r.scope == TD_SCOPE_BLOCK || r.scope == TD_SCOPE_BUFFER;
  uint64_t word = 4ull << r.word_shift, words = counted ? (measured + word - 1) / word : 0;
  return r.fixed_bytes + words * r.bytes_per_word + nsites * r.bytes_per_site;
}

void sizeRegions(std::vector<td_region>& table, uint64_t windowBytes, uint64_t nsites) {
  for (td_region& r : table)
    if (present(r) && r.scope != TD_SCOPE_BUFFER) r.bytes = regionInstanceBytes(r, windowBytes, nsites);
}

std::vector<BufferRegionNeed> bufferRegionNeeds(const std::vector<td_region>& table, const std::vector<ArgValue>& args,
                                                uint64_t nsites) {
  std::vector<BufferRegionNeed> needs;
  for (size_t id = 0; id < table.size(); ++id) {
    const td_region& r = table[id];
    if (present(r) && r.scope == TD_SCOPE_BUFFER && r.slot < TD_BUFFER_REGIONS)
      for (size_t i = 0; i < args.size() && i < TD_MAX_BUFFERS; ++i)
        if (args[i].spec->isBuffer && args[i].bytes)
          needs.push_back({i, r.slot, regionInstanceBytes(r, args[i].bytes, nsites), static_cast<unsigned>(id)});
  }
  return needs;
}

}  // namespace td
