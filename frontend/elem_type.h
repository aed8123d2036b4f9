// Element types of bundle buffers and scalars.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace td {

// F8E4M3 / F8E5M2: NVIDIA's fp8 formats (frontend/fp8.h), one byte each; .npy files hold their raw bits.
enum class ElemType { F16, BF16, F32, F64, I8, U8, I16, I32, U32, I64, U64, F8E4M3, F8E5M2 };

std::optional<ElemType> parseElemType(const std::string& name);  // "half", "float", "int" ...
const char* elemTypeName(ElemType t);
size_t elemSize(ElemType t);
bool isFloat(ElemType t);

// Conversions used by initialisers, reference checks and .npy files.
double loadElem(ElemType t, const void* p);
void storeElem(ElemType t, void* p, double v);
const char* npyDescr(ElemType t);  // "<f2", "<f4", ...
std::optional<ElemType> elemTypeFromNpy(const std::string& descr);

}  // namespace td
