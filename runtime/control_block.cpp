#include "runtime/control_block.h"

#include <cstring>

namespace td {

td_ctl makeControlBlock(const std::vector<ArgValue>& args, const std::vector<uint64_t>& addresses, uint32_t nsites,
                        uint32_t dynamicSharedBytes, uint64_t channel, uint64_t hits,
                        const std::vector<td_region>& regions, const std::vector<BufferRegions>& bufferRegions) {
  td_ctl ctl;
  std::memset(&ctl, 0, sizeof ctl);
  ctl.abi_version = TD_ABI_VERSION;
  ctl.nbuffers = static_cast<unsigned>(args.size());
  ctl.nsites = nsites;
  ctl.dynamic_shared_bytes = dynamicSharedBytes;
  ctl.channel = reinterpret_cast<td_channel*>(channel);
  ctl.hits = reinterpret_cast<unsigned*>(hits);
  for (size_t i = 0; i < regions.size() && i < TD_MAX_REGIONS; ++i) ctl.regions[i] = regions[i];
  for (size_t i = 0; i < args.size() && i < TD_MAX_BUFFERS; ++i) {  // later arguments go unchecked
    if (!args[i].spec->isBuffer) continue;
    td_buffer& b = ctl.buffers[i];
    b.base = addresses[i];
    b.bytes = args[i].bytes;
    for (size_t k = 0; i < bufferRegions.size() && k < TD_BUFFER_REGIONS; ++k) b.region[k] = bufferRegions[i][k];
    b.flags = args[i].spec->init.kind == InitSpec::Uninit ? TD_BUFFER_UNINIT : 0u;
  }
  return ctl;
}

}  // namespace td
