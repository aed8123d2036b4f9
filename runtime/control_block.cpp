#include "runtime/control_block.h"

#include <cstddef>
#include <cstring>
#include <fmt/format.h>

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

std::string bufferBaseSymbol(size_t i) { return fmt::format("__td_run_base{}", i); }

std::map<unsigned, std::string> bufferParameterSymbols(const ControlBlockAddresses& addresses, size_t nargs) {
  std::map<unsigned, std::string> symbols;
  for (size_t i = 0; i < nargs && i < TD_MAX_BUFFERS; ++i)
    if (addresses.values.count(bufferBaseSymbol(i))) symbols[static_cast<unsigned>(i)] = bufferBaseSymbol(i);
  return symbols;
}

ControlBlockAddresses controlBlockAddresses(const td_ctl& ctl) {
  ControlBlockAddresses a;
  auto address = [&](uint64_t offset, const std::string& symbol, uint64_t value) {
    if (value == 0) return;
    a.fields[offset] = symbol;
    a.values[symbol] = value;
  };
  address(offsetof(td_ctl, channel), "__td_run_channel", reinterpret_cast<uint64_t>(ctl.channel));
  address(offsetof(td_ctl, hits), "__td_run_hits", reinterpret_cast<uint64_t>(ctl.hits));
  for (size_t i = 0; i < TD_MAX_REGIONS; ++i)  // grid-scope instances the executor placed in global memory
    address(offsetof(td_ctl, regions) + i * sizeof(td_region) + offsetof(td_region, base),
            fmt::format("__td_run_grid_region{}", i), ctl.regions[i].base);
  for (size_t i = 0; i < ctl.nbuffers && i < TD_MAX_BUFFERS; ++i) {
    uint64_t at = offsetof(td_ctl, buffers) + i * sizeof(td_buffer);
    address(at + offsetof(td_buffer, base), bufferBaseSymbol(i), ctl.buffers[i].base);
    for (size_t k = 0; k < TD_BUFFER_REGIONS; ++k)
      address(at + offsetof(td_buffer, region) + k * sizeof(uint64_t), fmt::format("__td_run_region{}_{}", i, k),
              ctl.buffers[i].region[k]);
  }
  return a;
}

}  // namespace td
