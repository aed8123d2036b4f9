#include "runtime/cuda/register_cap.h"

#include <fmt/format.h>

#include "frontend/occupancy.h"

namespace td::cuda {

std::vector<int64_t> registerCaps(const KernelResources& asWritten, const KernelResources& checked,
                                  int64_t threadsPerBlock, const Profile& sm) {
  if (asWritten.registers <= 0 || checked.registers <= 0 || threadsPerBlock <= 0 || sm.registersPerSm <= 0) return {};
  auto blocksAt = [&](int64_t registers, int64_t shared) {
    return occupancyOf({threadsPerBlock, shared, registers}, sm).blocksPerSm;
  };
  int64_t most = std::min(blocksAt(asWritten.registers, asWritten.sharedPerBlock), blocksAt(0, checked.sharedPerBlock));
  int64_t uncapped = blocksAt(checked.registers, checked.sharedPerBlock);
  std::vector<int64_t> caps;
  int64_t cap = checked.registers;
  for (int64_t blocks = uncapped + 1; blocks <= most; ++blocks) {  // one block more first: caps fall
    while (cap > asWritten.registers && blocksAt(cap, checked.sharedPerBlock) < blocks) --cap;
    if (blocksAt(cap, checked.sharedPerBlock) < blocks) break;
    if (caps.empty() || caps.back() != cap) caps.push_back(cap);
  }
  return caps;
}

std::string withRegisterCap(const std::string& ptx, const std::string& entry, int64_t cap) {
  size_t at = ptx.find(".entry " + entry + "(");
  if (at == std::string::npos || cap <= 0) return "";
  size_t body = ptx.find("\n{", at);
  if (body == std::string::npos) return "";
  if (ptx.substr(at, body - at).find(".maxnreg") != std::string::npos) return "";
  std::string capped = ptx;
  capped.insert(body + 1, fmt::format(".maxnreg {}\n", cap));
  return capped;
}

}  // namespace td::cuda
