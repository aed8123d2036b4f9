// The host functions the retargeted kernel calls (scheduler entry points, executor primitives of the
// device runtime, soft-float helpers), as (name, address) pairs for the JIT.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace td::cpu {

std::vector<std::pair<std::string, void*>> hostSymbols();

// A thread that stops the kernel (a failed device assert, __trap) calls this, after its record went to
// the channel; it does not return. The executor's child sets it.
using KernelStopSink = void (*)();
void setKernelStopSink(KernelStopSink sink);

// Where device printf writes (standard output unless the report goes there as JSON).
void setDevicePrintFd(int fd);

}  // namespace td::cpu
