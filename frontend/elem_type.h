// Element types of bundle buffers and scalars.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace td {

// F8E4M3 / F8E5M2: NVIDIA's fp8 formats (frontend/fp8.h), one byte each; .npy files hold their raw bits.
// F8E8M0: the OCP MX scale format (torch.float8_e8m0fnu): 2^(byte - 127), no sign, 0xff NaN; raw bits too.
// I4 / U4: 4-bit integers packed two to a byte, the even element in the low nibble (TileLang's int4
// buffers, which PyTorch code passes as int8 tensors with the last dimension halved); .npy files hold the
// packed bytes the same way (int8 / uint8).
enum class ElemType { F16, BF16, F32, F64, I8, U8, I16, I32, U32, I64, U64, F8E4M3, F8E5M2, F8E8M0, I4, U4 };

std::optional<ElemType> parseElemType(const std::string& name);  // "half", "float", "int" ...
const char* elemTypeName(ElemType t);
size_t elemSize(ElemType t);  // bytes of one element; a packed type's: its storage byte
unsigned elemBits(ElemType t);
bool isPacked(ElemType t);    // fewer than 8 bits an element
uint64_t storageBytes(ElemType t, uint64_t elements);      // rounded up to whole bytes
int64_t elementOfByte(ElemType t, int64_t byteOffset);     // the first element the byte holds (floor)
bool isFloat(ElemType t);
bool intFits(ElemType t, int64_t v);  // an integer type holds v unchanged

// Conversions used by initialisers, reference checks and .npy files.
double loadElem(ElemType t, const void* p);
void storeElem(ElemType t, void* p, double v);
// Element `index` of an array that starts at `base` (packed types: its nibble).
double loadElemAt(ElemType t, const void* base, uint64_t index);
void storeElemAt(ElemType t, void* base, uint64_t index, double v);
const char* npyDescr(ElemType t);  // "<f2", "<f4", ...
std::optional<ElemType> elemTypeFromNpy(const std::string& descr);

}  // namespace td
