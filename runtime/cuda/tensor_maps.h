// Hopper TMA descriptors for the CUDA executor: each "tensormap" argument (frontend/tensor_map.h) built with
// cuTensorMapEncodeTiled over its tensor's device allocation, as TileLang's host code builds it before a
// launch, and passed by value (__grid_constant__) like any kernel parameter.
#pragma once
#include <vector>

#include "runtime/buffers.h"
#include "runtime/cuda/driver.h"

namespace td::cuda {

struct alignas(128) TensorMapBytes {  // CUDA 13 aligns CUtensorMap to 128 (64 needed)
  unsigned char bytes[128];
};

// Fills maps[i] for every buffer i the kernel takes as a TMA descriptor, over devPtrs[i] (its device
// allocation), and points params[i] at it. Throws std::runtime_error when the driver cannot build one.
void encodeTensorMaps(const Driver& d, const std::vector<ArgValue>& args, const std::vector<CUdeviceptr>& devPtrs,
                      std::vector<TensorMapBytes>& maps, std::vector<void*>& params);

}  // namespace td::cuda
