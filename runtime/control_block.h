// The launch's control block (__td_ctl): ABI version, sites, dynamic shared size, where the records go,
// and each buffer argument's address and size as the executor placed it. Both executors fill it here.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/abi.h"
#include "runtime/buffers.h"

namespace td {

// `addresses[i]` is buffer argument i's address on the executor (unused for scalars); `channel` and
// `hits` are the record channel and counters as the kernel sees them; `regions` the families' region
// table as the executor placed it (empty: none) and `bufferRegions[i]` buffer i's instances of the
// per-buffer ones (0: none).
using BufferRegions = std::array<uint64_t, TD_BUFFER_REGIONS>;
td_ctl makeControlBlock(const std::vector<ArgValue>& args, const std::vector<uint64_t>& addresses, uint32_t nsites,
                        uint32_t dynamicSharedBytes, uint64_t channel, uint64_t hits,
                        const std::vector<td_region>& regions = {}, const std::vector<BufferRegions>& bufferRegions = {});

// The control block's address words — this run's mappings, which differ from run to run — each named by a
// symbol (`__td_run_channel`, `__td_run_base2`, ...): bakeGlobal turns them into references to those
// symbols, so the compiled module holds no address of the run and can be kept (the CPU's object cache, the
// GPU driver's compute cache). Zero words (absent) are not named.
struct ControlBlockAddresses {
  std::map<uint64_t, std::string> fields;  // byte offset in td_ctl -> symbol
  std::map<std::string, uint64_t> values;  // symbol -> this run's address
};
ControlBlockAddresses controlBlockAddresses(const td_ctl& ctl);
// The symbol of buffer argument i's address (the same value the kernel gets as its parameter i).
std::string bufferBaseSymbol(size_t i);
// Parameter -> its buffer's base symbol, for every buffer argument `addresses` names.
std::map<unsigned, std::string> bufferParameterSymbols(const ControlBlockAddresses& addresses, size_t nargs);

}  // namespace td
