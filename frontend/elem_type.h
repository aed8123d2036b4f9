// Element types of bundle buffers and scalars.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace td {

enum class ElemType { F16, BF16, F32, F64, I8, U8, I16, I32, U32, I64, U64 };

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
