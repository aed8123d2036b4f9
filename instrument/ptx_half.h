// The CUDA SDK's half/bfloat16 helpers whose device forms are one inline-PTX statement (cuda_fp16.hpp,
// cuda_bf16.hpp): conversions, sign operations, packs, arithmetic and comparisons. Part of the catalogue.
#pragma once
#include <optional>
#include <string>

#include "instrument/ptx_catalogue.h"

namespace td {

// `normalized`: the asm text with whitespace runs collapsed to one space. nullopt: not one of these.
std::optional<PtxStatement> parseHalfScalar(const std::string& normalized);

}  // namespace td
