#include "frontend/tensor_map.h"

#include <fmt/format.h>

#include "frontend/manifest.h"

namespace td {

uint64_t TensorMapSpec::spanBytes() const {
  uint64_t last = strides.empty() ? 0 : strides[0];  // the byte offset of the last element, plus one element
  for (size_t i = 0; i < dims.size() && i < strides.size(); ++i) {
    uint64_t step;
    if (dims[i] == 0 || __builtin_mul_overflow(dims[i] - 1, strides[i], &step) || __builtin_add_overflow(last, step, &last))
      return UINT64_MAX;
  }
  return last;
}

unsigned tensorMapElementBytes(int dataType) {
  switch (dataType) {
    case 0: return 1;                       // UINT8 (fp8 travels as it)
    case 1: case 6: case 9: return 2;       // UINT16, FLOAT16, BFLOAT16
    case 2: case 3: case 7: case 10: case 11: return 4;  // UINT32, INT32, FLOAT32, FLOAT32_FTZ, TFLOAT32
    case 4: case 5: case 8: return 8;       // UINT64, INT64, FLOAT64
    default: return 0;
  }
}

std::string tensorMapProblem(const TensorMapSpec& m, const ArgSpec& tensor) {
  size_t rank = m.dims.size();
  if (rank == 0 || rank > kTensorMapMaxRank) return fmt::format("a descriptor has 1 to {} dimensions, not {}", kTensorMapMaxRank, rank);
  if (m.strides.size() != rank || m.box.size() != rank || m.elementStrides.size() != rank)
    return fmt::format("dims, strides, box and element_strides must each have {} entries", rank);
  unsigned elem = tensorMapElementBytes(m.dataType);
  if (elem == 0) return fmt::format("data_type {} is no CUtensorMapDataType tile-doctor knows", m.dataType);
  if (!isPacked(tensor.type) && elemSize(tensor.type) != elem)
    return fmt::format("data_type {} has {}-byte elements; '{}' is {}", m.dataType, elem, tensor.name,
                       elemTypeName(tensor.type));
  if (m.strides[0] != elem) return fmt::format("strides[0] is {}; the element size of data_type {} is {}", m.strides[0], m.dataType, elem);
  for (size_t i = 0; i < rank; ++i) {
    if (m.dims[i] == 0 || m.dims[i] > (uint64_t{1} << 32)) return fmt::format("dims[{}] = {} is outside 1..2^32", i, m.dims[i]);
    if (m.box[i] == 0 || m.box[i] > 256) return fmt::format("box[{}] = {} is outside 1..256", i, m.box[i]);
    if (m.elementStrides[i] == 0 || m.elementStrides[i] > 8)
      return fmt::format("element_strides[{}] = {} is outside 1..8", i, m.elementStrides[i]);
    uint64_t below;  // the bytes one step of the dimension below spans
    if (i > 0 && (__builtin_mul_overflow(m.strides[i - 1], m.dims[i - 1], &below) || m.strides[i] % 16 != 0 ||
                  m.strides[i] < below))
      return fmt::format("strides[{}] = {} is not a multiple of 16 at least the size of dimension {}", i, m.strides[i],
                         i - 1);
  }
  if (m.interleave < 0 || m.interleave > 2 || m.swizzle < 0 || m.swizzle > 3 || m.l2Promotion < 0 ||
      m.l2Promotion > 3 || m.oobFill < 0 || m.oobFill > 1)
    return "interleave (0-2), swizzle (0-3), l2_promotion (0-3) or oob_fill (0-1) is out of range";
  // A descriptor that reaches past its tensor would let TMA copies read or write outside it unchecked.
  if (m.spanBytes() > tensor.byteSize())
    return fmt::format("it reaches {} bytes; '{}' has {}", m.spanBytes(), tensor.name, tensor.byteSize());
  return "";
}

}  // namespace td
