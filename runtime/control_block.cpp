#include "runtime/control_block.h"

#include <cstring>

namespace td {

td_ctl makeControlBlock(const std::vector<ArgValue>& args, const std::vector<uint64_t>& addresses, uint32_t nsites,
                        uint32_t dynamicSharedBytes, uint64_t channel, uint64_t hits,
                        const std::vector<uint64_t>& shadows) {
  td_ctl ctl;
  std::memset(&ctl, 0, sizeof ctl);
  ctl.abi_version = TD_ABI_VERSION;
  ctl.nbuffers = static_cast<unsigned>(args.size());
  ctl.nsites = nsites;
  ctl.dynamic_shared_bytes = dynamicSharedBytes;
  ctl.channel = reinterpret_cast<td_channel*>(channel);
  ctl.hits = reinterpret_cast<unsigned*>(hits);
  for (size_t i = 0; i < args.size() && i < TD_MAX_BUFFERS; ++i)  // later arguments go unchecked
    if (args[i].spec->isBuffer)
      ctl.buffers[i] = {addresses[i], args[i].bytes, i < shadows.size() ? shadows[i] : 0,
                        args[i].spec->init.kind == InitSpec::Uninit ? TD_BUFFER_UNINIT : 0u, 0};
  return ctl;
}

}  // namespace td
