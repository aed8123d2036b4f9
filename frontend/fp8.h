// The two 8-bit float formats of NVIDIA's fp8 (OCP FP8): E4M3 (bias 7, no infinities, S.1111.111 is NaN,
// largest 448 — torch.float8_e4m3fn) and E5M2 (bias 15, IEEE-style infinities and NaNs, largest 57344).
#pragma once
#include <cstdint>

namespace td {

float fp8E4M3ToFloat(uint8_t v);
float fp8E5M2ToFloat(uint8_t v);
// Round to nearest, ties to even; out of range E4M3 gives NaN (as torch's conversion), E5M2 ±inf.
uint8_t floatToFp8E4M3(float f);
uint8_t floatToFp8E5M2(float f);
// E8M0 (torch.float8_e8m0fnu): a power of two 2^(v - 127), 0xff NaN. From a float as torch converts: the
// sign dropped, the exponent rounded up when the mantissa is at least half (ties up), NaN, inf and
// overflow to 0xff, values below 2^-127 (subnormals) by the same rule on their bits.
float fp8E8M0ToFloat(uint8_t v);
uint8_t floatToFp8E8M0(float f);

}  // namespace td
