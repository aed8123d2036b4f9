#include "frontend/fp8.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace td {

namespace {

float decode(uint8_t v, int expBits, int bias, bool ieeeSpecials) {
  int manBits = 7 - expBits;
  bool neg = v & 0x80;
  int e = (v >> manBits) & ((1 << expBits) - 1);
  int m = v & ((1 << manBits) - 1);
  float r;
  if (ieeeSpecials && e == (1 << expBits) - 1) {
    r = m ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else if (!ieeeSpecials && e == (1 << expBits) - 1 && m == (1 << manBits) - 1) {
    r = std::numeric_limits<float>::quiet_NaN();
  } else if (e == 0) {
    r = std::ldexp(static_cast<float>(m), 1 - bias - manBits);  // subnormal
  } else {
    r = std::ldexp(1.0f + static_cast<float>(m) / static_cast<float>(1 << manBits), e - bias);
  }
  return neg ? -r : r;
}

// The nearest finite code of the format (ties to the even code); a magnitude at or past the midpoint
// above the largest finite value overflows: NaN for E4M3 (as torch's conversion does), inf for E5M2.
uint8_t encode(float f, float (*toFloat)(uint8_t), uint8_t nan, bool hasInf) {
  if (std::isnan(f)) return nan;
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  float a = std::fabs(f);
  uint8_t best = 0;
  float bestErr = std::numeric_limits<float>::infinity(), largest = 0, belowLargest = 0;
  for (int c = 0; c < 0x80; ++c) {
    float v = toFloat(static_cast<uint8_t>(c));
    if (!std::isfinite(v)) continue;
    if (v > largest) belowLargest = largest, largest = v;
    float err = std::fabs(v - a);
    if (err < bestErr || (err == bestErr && (c & 1) == 0)) best = static_cast<uint8_t>(c), bestErr = err;
  }
  if (a >= largest + (largest - belowLargest) / 2) return hasInf ? static_cast<uint8_t>(sign | 0x7c) : nan;
  return sign | best;
}

}  // namespace

float fp8E4M3ToFloat(uint8_t v) { return decode(v, 4, 7, false); }
float fp8E5M2ToFloat(uint8_t v) { return decode(v, 5, 15, true); }
uint8_t floatToFp8E4M3(float f) { return encode(f, fp8E4M3ToFloat, 0x7f, false); }
uint8_t floatToFp8E5M2(float f) { return encode(f, fp8E5M2ToFloat, 0x7e, true); }

float fp8E8M0ToFloat(uint8_t v) {
  return v == 0xff ? std::numeric_limits<float>::quiet_NaN() : std::ldexp(1.0f, static_cast<int>(v) - 127);
}
uint8_t floatToFp8E8M0(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t exponent = (bits >> 23) & 0xff;
  if (exponent == 0xff) return 0xff;  // inf and NaN
  if (bits & 0x400000) ++exponent;    // the mantissa's top bit: at least half way to the next power
  return static_cast<uint8_t>(std::min<uint32_t>(exponent, 0xff));
}

}  // namespace td
