#include "runtime/cuda/device_regions.h"

#include <fmt/format.h>

#include "instrument/shared_layout.h"
#include "runtime/cuda/shared_tail.h"
#include "runtime/executor_limit.h"

namespace td::cuda {

void DeviceRegions::zero(const Driver& d) const {
  for (auto [p, n] : allocations) check(d, d.cuMemsetD8(p, 0, n), "cuMemsetD8 (checks' device state)");
}

uint32_t DeviceRegions::dynamicShared(const Bundle& b) const {
  auto dynamic = static_cast<uint32_t>(b.dynamicShared);
  return tailBytes ? TD_SHARED_TAIL_OFFSET(dynamic) + tailBytes : dynamic;
}

namespace {

constexpr uint64_t kDeviceStateLimit = 32ull << 30;  // of the GPU's memory, for all of it together
constexpr uint64_t kHangReadbackLimit = 64ull << 20;  // a hang-report region larger than this is left out

CUdeviceptr zeroedAlloc(const Driver& d, size_t bytes, DeviceRegions& dr) {
  CUdeviceptr p = 0;
  check(d, d.cuMemAlloc(&p, bytes), "cuMemAlloc (checks' device state)");
  check(d, d.cuMemsetD8(p, 0, bytes), "cuMemsetD8 (checks' device state)");
  dr.allocations.emplace_back(p, bytes);
  return p;
}

// The launch's blocks and threads per block, which decide how many instances a region has.
struct LaunchSize {
  uint64_t blocks, threads;
  explicit LaunchSize(const Bundle& b)
      : blocks(static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2])),
        threads(static_cast<uint64_t>(b.threadsPerBlock())) {}
  uint64_t instances(const td_region& r) const {
    return r.scope == TD_SCOPE_BLOCK ? blocks : r.scope == TD_SCOPE_THREAD ? blocks * threads : 1;
  }
};

// The kernel's window (its static arrays as laid out here, then the dynamic array), with 1 KiB of slack
// for the assembler's padding; a family's device code skips anything past its regions.
uint64_t kernelSharedBytes(const KernelModule& km, const Bundle& b) {
  return layOutShared(km.sites).dynamicOffset + static_cast<uint64_t>(b.dynamicShared);
}

}  // namespace

std::vector<td_region> sizedRegions(const KernelModule& km, const Bundle& b, const LaunchOptions& opts) {
  std::vector<td_region> table = opts.regions;
  sizeRegions(table, kernelSharedBytes(km, b) + 1024, km.sites.sites.size());
  LaunchSize size(b);
  for (td_region& r : table)
    if ((r.flags & TD_REGION_HANG_READBACK) && (r.scope != TD_SCOPE_THREAD || r.bytes * size.instances(r) > kHangReadbackLimit))
      r = td_region{};
  return table;
}

DeviceRegions allocateRegions(const Driver& d, const KernelModule& km, const Bundle& b, const std::vector<ArgValue>& args,
                              const std::vector<td_region>& sized, uint64_t sharedPerBlockLimit, const Profile& sm) {
  DeviceRegions dr;
  LaunchSize size(b);
  SharedTail tail = planSharedTail(sized, b.threadsPerBlock(), kernelSharedBytes(km, b), sharedPerBlockLimit, sm);
  dr.table = tail.table;
  dr.tailBytes = tail.bytes;
  auto inGlobal = [](const td_region& r) {
    return present(r) && !(r.flags & TD_REGION_IN_SHARED) && r.scope != TD_SCOPE_BUFFER;
  };
  std::vector<BufferRegionNeed> needs = bufferRegionNeeds(dr.table, args, km.sites.sites.size());
  uint64_t total = 0;
  for (const td_region& r : dr.table)
    if (inGlobal(r)) total += r.bytes * size.instances(r);
  for (const BufferRegionNeed& n : needs) total += n.bytes;
  if (total > kDeviceStateLimit)  // the tool's limit, not the kernel's fault: exit 6, as the CPU executor's refusals
    throw cannotRunHere(b, fmt::format("the checks need {:.1f} GiB of GPU memory for their state in this launch "
                                       "(limit {} GiB): run them on the CPU executor, or leave some out with --checks",
                                       total / double(1ull << 30), kDeviceStateLimit >> 30));
  dr.buffers.assign(args.size(), BufferRegions{});
  for (const BufferRegionNeed& n : needs) dr.buffers[n.arg][n.slot] = zeroedAlloc(d, n.bytes, dr);
  for (td_region& r : dr.table)
    if (inGlobal(r)) r.base = zeroedAlloc(d, r.bytes * size.instances(r), dr);
  return dr;
}


std::vector<ReadbackSlot> readbackSlots(const std::vector<td_region>& table, const Bundle& b,
                                        const std::vector<ArgValue>& args, uint64_t nsites, size_t& totalBytes) {
  std::vector<ReadbackSlot> slots;
  LaunchSize size(b);
  totalBytes = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const td_region& r = table[i];
    bool hang = present(r) && (r.flags & TD_REGION_HANG_READBACK);
    if (!hang && !readBackAfterLaunch(r)) continue;
    size_t bytes = r.bytes * size.instances(r);
    slots.push_back({static_cast<unsigned>(i), totalBytes, bytes, hang});
    totalBytes += roundUp16(bytes);
  }
  for (const BufferRegionNeed& n : bufferRegionNeeds(table, args, nsites))
    if (buffersReadBack(table[n.id])) {
      slots.push_back({n.id, totalBytes, n.bytes, false, static_cast<int>(n.arg)});
      totalBytes += roundUp16(n.bytes);
    }
  return slots;
}

}  // namespace td::cuda
