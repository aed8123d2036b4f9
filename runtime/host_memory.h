// How much memory this process may still take: MemAvailable of /proc/meminfo, lowered to what the
// cgroup leaves (v2 memory.max minus memory.current; v1 limit_in_bytes minus usage), so a check refuses
// buffers the host cannot hold instead of being killed by the OOM killer midway. `source` says which.
#pragma once
#include <cstdint>
#include <string>

namespace td {

uint64_t availableMemory(std::string& source);

}  // namespace td
