#include "runtime/cuda/shared_tail.h"

#include "frontend/occupancy.h"
#include "runtime/regions.h"

namespace td::cuda {

namespace {

bool blockOrThread(const td_region& r) { return r.scope == TD_SCOPE_BLOCK || r.scope == TD_SCOPE_THREAD; }

bool placeable(const td_region& r, unsigned flag) {
  return present(r) && (r.flags & flag) && !(r.flags & TD_REGION_HANG_READBACK) && blockOrThread(r);
}

uint64_t instanceBytes(const td_region& r, int64_t threadsPerBlock) {
  return roundUp16(r.bytes * (r.scope == TD_SCOPE_THREAD ? static_cast<uint64_t>(threadsPerBlock) : 1));
}

}  // namespace

SharedTail planSharedTail(const std::vector<td_region>& sized, int64_t threadsPerBlock, uint64_t kernelShared,
                          uint64_t limit, const Profile& sm) {
  SharedTail none{sized, 0};
  SharedTail plan{sized, 0};
  uint64_t tail = 0;
  // The kernel's window and 1 KiB for the assembler's padding (the regions are sized for it), then the tail.
  auto fits = [&](uint64_t t) { return kernelShared + 1024 + TD_SHARED_TAIL_ALIGN + t <= limit; };
  auto place = [&](td_region& r) {
    r.flags |= TD_REGION_IN_SHARED;
    r.shared_offset = static_cast<uint32_t>(tail);
    tail += instanceBytes(r, threadsPerBlock);
  };
  for (td_region& r : plan.table)
    if (placeable(r, TD_REGION_PREFER_SHARED)) place(r);
  if (!tail || !fits(tail)) return none;
  auto blocksPerSm = [&](uint64_t t) {
    int64_t shared = static_cast<int64_t>(kernelShared + TD_SHARED_TAIL_ALIGN + t);
    return occupancyOf({threadsPerBlock, shared, kCheckedRegistersAtLeast}, sm).blocksPerSm;
  };
  if (kernelShared > 0)
    for (td_region& r : plan.table)
      if (placeable(r, TD_REGION_PREFER_SHARED_IF_FREE)) {
        uint64_t with = tail + instanceBytes(r, threadsPerBlock);
        if (fits(with) && blocksPerSm(with) >= blocksPerSm(tail)) place(r);
      }
  plan.bytes = static_cast<uint32_t>(tail);
  return plan;
}

}  // namespace td::cuda
