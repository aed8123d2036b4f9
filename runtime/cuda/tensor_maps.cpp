#include "runtime/cuda/tensor_maps.h"

#include <fmt/format.h>
#include <stdexcept>

namespace td::cuda {

void encodeTensorMaps(const Driver& d, const std::vector<ArgValue>& args, const std::vector<CUdeviceptr>& devPtrs,
                      std::vector<TensorMapBytes>& maps, std::vector<void*>& params) {
  maps.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].spec->isTensorMap) continue;
    const TensorMapSpec& m = args[i].spec->tensorMap;
    if (!d.cuTensorMapEncodeTiled)
      throw std::runtime_error(fmt::format("TMA descriptor {}: this CUDA driver has no cuTensorMapEncodeTiled (CUDA 12+)",
                                           args[i].spec->name));
    // The driver takes the strides of dimensions 1 on; the bundle's strides[0] is the element size.
    std::vector<unsigned long long> dims(m.dims.begin(), m.dims.end()), strides(m.strides.begin() + 1, m.strides.end());
    std::vector<unsigned> box(m.box.begin(), m.box.end()), elementStrides(m.elementStrides.begin(), m.elementStrides.end());
    CUresult r = d.cuTensorMapEncodeTiled(maps[i].bytes, m.dataType, static_cast<unsigned>(dims.size()),
                                          reinterpret_cast<void*>(devPtrs[i]), dims.data(), strides.data(),
                                          box.data(), elementStrides.data(), m.interleave, m.swizzle, m.l2Promotion,
                                          m.oobFill);
    if (r != 0)
      throw std::runtime_error(fmt::format("cuTensorMapEncodeTiled for {}: {} ({})", args[i].spec->name,
                                           d.errorName(r), d.errorString(r)));
    params[i] = maps[i].bytes;  // the kernel takes the descriptor, not the pointer
  }
}

}  // namespace td::cuda
