#include "frontend/elem_type.h"

#include "frontend/fp8.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace td {

std::optional<ElemType> parseElemType(const std::string& n) {
  if (n == "half" || n == "float16" || n == "__half" || n == "half_t") return ElemType::F16;
  if (n == "bfloat16" || n == "bf16" || n == "__nv_bfloat16" || n == "bfloat16_t") return ElemType::BF16;
  if (n == "float" || n == "float32") return ElemType::F32;
  if (n == "double" || n == "float64") return ElemType::F64;
  if (n == "int4") return ElemType::I4;
  if (n == "uint4") return ElemType::U4;
  if (n == "int8") return ElemType::I8;
  if (n == "uint8") return ElemType::U8;
  if (n == "int16") return ElemType::I16;
  if (n == "int32" || n == "int") return ElemType::I32;
  if (n == "uint32") return ElemType::U32;
  if (n == "int64") return ElemType::I64;
  if (n == "uint64") return ElemType::U64;
  if (n == "float8_e4m3" || n == "float8_e4m3fn" || n == "fp8_e4m3" || n == "__nv_fp8_e4m3" || n == "fp8_e4_t")
    return ElemType::F8E4M3;
  if (n == "float8_e5m2" || n == "fp8_e5m2" || n == "__nv_fp8_e5m2" || n == "fp8_e5_t") return ElemType::F8E5M2;
  if (n == "float8_e8m0" || n == "float8_e8m0fnu" || n == "__nv_fp8_e8m0" || n == "fp8_e8_t") return ElemType::F8E8M0;
  return std::nullopt;
}

const char* elemTypeName(ElemType t) {
  switch (t) {
    case ElemType::F16: return "half";
    case ElemType::BF16: return "bfloat16";
    case ElemType::F32: return "float";
    case ElemType::F64: return "double";
    case ElemType::I8: return "int8";
    case ElemType::U8: return "uint8";
    case ElemType::I16: return "int16";
    case ElemType::I32: return "int32";
    case ElemType::U32: return "uint32";
    case ElemType::I64: return "int64";
    case ElemType::U64: return "uint64";
    case ElemType::F8E4M3: return "float8_e4m3";
    case ElemType::F8E5M2: return "float8_e5m2";
    case ElemType::F8E8M0: return "float8_e8m0";
    case ElemType::I4: return "int4";
    case ElemType::U4: return "uint4";
  }
  return "?";
}

size_t elemSize(ElemType t) {
  switch (t) {
    case ElemType::I8: case ElemType::U8: case ElemType::F8E4M3: case ElemType::F8E5M2: case ElemType::F8E8M0: return 1;
    case ElemType::I4: case ElemType::U4: return 1;
    case ElemType::F16: case ElemType::BF16: case ElemType::I16: return 2;
    case ElemType::F32: case ElemType::I32: case ElemType::U32: return 4;
    default: return 8;
  }
}

bool isPacked(ElemType t) { return t == ElemType::I4 || t == ElemType::U4; }

unsigned elemBits(ElemType t) { return isPacked(t) ? 4 : static_cast<unsigned>(8 * elemSize(t)); }

uint64_t storageBytes(ElemType t, uint64_t elements) {
  return isPacked(t) ? elements / 2 + elements % 2 : elements * elemSize(t);
}

int64_t elementOfByte(ElemType t, int64_t byteOffset) {
  if (isPacked(t)) return byteOffset * 2;
  int64_t es = static_cast<int64_t>(elemSize(t));
  return byteOffset >= 0 ? byteOffset / es : -((-byteOffset + es - 1) / es);
}

bool intFits(ElemType t, int64_t v) {
  bool isUnsigned = t == ElemType::U8 || t == ElemType::U32 || t == ElemType::U64 || t == ElemType::U4;
  unsigned bits = elemBits(t);
  if (isUnsigned) return v >= 0 && (bits >= 63 || v < (int64_t{1} << bits));
  return bits >= 64 || (v >= -(int64_t{1} << (bits - 1)) && v < (int64_t{1} << (bits - 1)));
}

bool isFloat(ElemType t) {
  return t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::F32 || t == ElemType::F64 ||
         t == ElemType::F8E4M3 || t == ElemType::F8E5M2 || t == ElemType::F8E8M0;
}

namespace {
float halfToFloat(uint16_t h) { _Float16 v; std::memcpy(&v, &h, 2); return static_cast<float>(v); }
uint16_t floatToHalf(float f) { _Float16 v = static_cast<_Float16>(f); uint16_t h; std::memcpy(&h, &v, 2); return h; }
float bf16ToFloat(uint16_t b) { uint32_t u = uint32_t(b) << 16; float f; std::memcpy(&f, &u, 4); return f; }
uint16_t floatToBf16(float f) {  // round to nearest even, NaN stays NaN
  uint32_t u; std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return 0x7fc0;
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}
template <class T> double ld(const void* p) { T v; std::memcpy(&v, p, sizeof v); return static_cast<double>(v); }
template <class T> void st(void* p, double d) { T v = static_cast<T>(d); std::memcpy(p, &v, sizeof v); }
}  // namespace

double loadElem(ElemType t, const void* p) {
  switch (t) {
    case ElemType::F16: { uint16_t h; std::memcpy(&h, p, 2); return halfToFloat(h); }
    case ElemType::BF16: { uint16_t h; std::memcpy(&h, p, 2); return bf16ToFloat(h); }
    case ElemType::F32: return ld<float>(p);
    case ElemType::F64: return ld<double>(p);
    case ElemType::I8: return ld<int8_t>(p);
    case ElemType::U8: return ld<uint8_t>(p);
    case ElemType::I16: return ld<int16_t>(p);
    case ElemType::I32: return ld<int32_t>(p);
    case ElemType::U32: return ld<uint32_t>(p);
    case ElemType::I64: return ld<int64_t>(p);
    case ElemType::U64: return ld<uint64_t>(p);
    case ElemType::F8E4M3: return fp8E4M3ToFloat(*static_cast<const uint8_t*>(p));
    case ElemType::F8E5M2: return fp8E5M2ToFloat(*static_cast<const uint8_t*>(p));
    case ElemType::F8E8M0: return fp8E8M0ToFloat(*static_cast<const uint8_t*>(p));
    case ElemType::I4: return static_cast<double>(static_cast<int8_t>(*static_cast<const uint8_t*>(p) << 4) >> 4);
    case ElemType::U4: return *static_cast<const uint8_t*>(p) & 0xf;
  }
  return 0;
}

void storeElem(ElemType t, void* p, double v) {
  switch (t) {
    case ElemType::F16: { uint16_t h = floatToHalf(static_cast<float>(v)); std::memcpy(p, &h, 2); return; }
    case ElemType::BF16: { uint16_t h = floatToBf16(static_cast<float>(v)); std::memcpy(p, &h, 2); return; }
    case ElemType::F32: return st<float>(p, v);
    case ElemType::F64: return st<double>(p, v);
    case ElemType::I8: return st<int8_t>(p, v);
    case ElemType::U8: return st<uint8_t>(p, v);
    case ElemType::I16: return st<int16_t>(p, v);
    case ElemType::I32: return st<int32_t>(p, v);
    case ElemType::U32: return st<uint32_t>(p, v);
    case ElemType::I64: return st<int64_t>(p, v);
    case ElemType::U64: return st<uint64_t>(p, v);
    case ElemType::F8E4M3: *static_cast<uint8_t*>(p) = floatToFp8E4M3(static_cast<float>(v)); return;
    case ElemType::F8E5M2: *static_cast<uint8_t*>(p) = floatToFp8E5M2(static_cast<float>(v)); return;
    case ElemType::F8E8M0: *static_cast<uint8_t*>(p) = floatToFp8E8M0(static_cast<float>(v)); return;
    case ElemType::I4:
    case ElemType::U4: *static_cast<uint8_t*>(p) = static_cast<uint8_t>(static_cast<int64_t>(v) & 0xf); return;
  }
}

double loadElemAt(ElemType t, const void* base, uint64_t index) {
  const auto* bytes = static_cast<const uint8_t*>(base);
  if (!isPacked(t)) return loadElem(t, bytes + index * elemSize(t));
  uint8_t nibble = (bytes[index / 2] >> (4 * (index % 2))) & 0xf;
  return loadElem(t, &nibble);
}

void storeElemAt(ElemType t, void* base, uint64_t index, double v) {
  auto* bytes = static_cast<uint8_t*>(base);
  if (!isPacked(t)) return storeElem(t, bytes + index * elemSize(t), v);
  uint8_t nibble = 0;
  storeElem(t, &nibble, v);
  unsigned shift = 4 * (index % 2);
  bytes[index / 2] = static_cast<uint8_t>((bytes[index / 2] & ~(0xf << shift)) | (nibble << shift));
}

const char* npyDescr(ElemType t) {
  switch (t) {
    case ElemType::F16: return "<f2";
    case ElemType::BF16: return "<u2";  // numpy has no bfloat16; raw bits
    case ElemType::F32: return "<f4";
    case ElemType::F64: return "<f8";
    case ElemType::I8: return "|i1";
    case ElemType::U8: return "|u1";
    case ElemType::I16: return "<i2";
    case ElemType::I32: return "<i4";
    case ElemType::U32: return "<u4";
    case ElemType::I64: return "<i8";
    case ElemType::U64: return "<u8";
    case ElemType::F8E4M3: case ElemType::F8E5M2: case ElemType::F8E8M0: return "|u1";  // numpy has no fp8; raw bits
    case ElemType::I4: return "|i1";  // packed bytes, as PyTorch code holds them
    case ElemType::U4: return "|u1";
  }
  return "?";
}

std::optional<ElemType> elemTypeFromNpy(const std::string& d) {
  for (ElemType t : {ElemType::F16, ElemType::F32, ElemType::F64, ElemType::I8, ElemType::U8, ElemType::I16,
                     ElemType::I32, ElemType::U32, ElemType::I64, ElemType::U64})
    if (d == npyDescr(t)) return t;
  return std::nullopt;
}

}  // namespace td
