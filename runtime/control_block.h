// The launch's control block (__td_ctl): ABI version, sites, dynamic shared size, where the records go,
// and each buffer argument's address and size as the executor placed it. Both executors fill it here.
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/abi.h"
#include "runtime/buffers.h"

namespace td {

// `addresses[i]` is buffer argument i's address on the executor (unused for scalars); `channel` and
// `hits` are the record channel and counters as the kernel sees them; `shadows[i]` buffer i's race
// shadow (empty or 0: none).
td_ctl makeControlBlock(const std::vector<ArgValue>& args, const std::vector<uint64_t>& addresses, uint32_t nsites,
                        uint32_t dynamicSharedBytes, uint64_t channel, uint64_t hits,
                        const std::vector<uint64_t>& shadows = {});

// Bytes of race shadow a buffer of `bytes` needs (one td_granule per 4 bytes).
inline uint64_t shadowBytesFor(uint64_t bytes) { return (bytes + 3) / 4 * sizeof(td_granule); }

}  // namespace td
