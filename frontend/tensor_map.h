// A buffer the kernel takes as a Hopper TMA descriptor: the 128-byte CUtensorMap passed by value
// (`__grid_constant__ const CUtensorMap A_desc`) instead of A's pointer. The manifest's buffer argument
// carries `tma = {...}`, how TileLang's host code builds the descriptor (__tvm_tensormap_create_tiled); the
// CUDA executor builds it the same way with cuTensorMapEncodeTiled over the buffer's device memory. The
// CPU executor does not run TMA copies and refuses it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace td {

struct ArgSpec;

struct TensorMapSpec {
  int dataType = 0;                        // CUtensorMapDataType (6: float16, 9: bfloat16, 7: float32, ...)
  std::vector<uint64_t> dims;              // elements per dimension, innermost first
  std::vector<uint64_t> strides;           // bytes per step along each dimension; strides[0] is the element size
  std::vector<uint32_t> box;               // the tile one copy moves, per dimension
  std::vector<uint32_t> elementStrides;
  int interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0;  // CUtensorMap* enums
  uint64_t spanBytes() const;              // the bytes of the tensor the descriptor can reach
};

constexpr size_t kTensorMapBytes = 128;    // sizeof(CUtensorMap), 64-byte aligned
constexpr size_t kTensorMapMaxRank = 5;

// Bytes of one element of a CUtensorMapDataType, 0 for one tile-doctor does not know.
unsigned tensorMapElementBytes(int dataType);

// The descriptor against its buffer: the rank, the element size, strides that grow, a box of at most 256
// per dimension, and a reach within the buffer. Returns what is wrong, "" when nothing is.
std::string tensorMapProblem(const TensorMapSpec& m, const ArgSpec& tensor);

}  // namespace td
