// The values an inline-asm operand slot (a 64-bit word holding a 32-bit register) carries, read and written
// by the CPU semantics of warp matrix instructions (ptx_semantics, mfma_semantics).
#pragma once
#include <cstdint>
#include <cstring>

namespace td::cpu {

inline float bitsf(uint64_t v) {  // a register's low 32 bits as a float
  uint32_t u = static_cast<uint32_t>(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint64_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float half2f(uint16_t h) {
  _Float16 v;
  std::memcpy(&v, &h, 2);
  return static_cast<float>(v);
}
inline uint16_t f2half(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
inline float bf16f(uint16_t b) { return bitsf(uint64_t(b) << 16); }
inline float tf32(uint64_t v) {  // the tensor cores read the upper 19 bits of each fp32 operand
  return bitsf(v & 0xffffe000u);
}

}  // namespace td::cpu
