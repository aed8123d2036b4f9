// Where each __shared__ variable sits in the block's shared window: static arrays in module order, each
// at its own alignment, then the dynamic (extern) array, which all extern declarations alias.
// Executors that place shared memory themselves (the CPU) use these offsets; the limit check uses the total.
#pragma once
#include <cstdint>
#include <vector>

#include "model/site_table.h"

namespace td {

struct SharedLayout {
  std::vector<uint64_t> offsets;  // per SiteTable::shared entry
  uint64_t staticBytes = 0;
  uint64_t dynamicOffset = 0;
};

SharedLayout layOutShared(const SiteTable& table);

}  // namespace td
