// Whether a usable GPU is there, probed in a child process so this process never initialises CUDA.
#pragma once
#include <string>

namespace td::cuda {

// When not, `why` says what is missing.
bool gpuAvailable(int device, std::string& why);

}  // namespace td::cuda
