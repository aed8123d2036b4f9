// The host functions the retargeted kernel calls (scheduler entry points, executor primitives of the
// device runtime, soft-float helpers), as (name, address) pairs for the JIT.
#pragma once
#include <utility>
#include <vector>

namespace td::cpu {

std::vector<std::pair<const char*, void*>> hostSymbols();

}  // namespace td::cpu
