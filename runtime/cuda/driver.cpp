#include "runtime/cuda/driver.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <stdexcept>

namespace td::cuda {

bool Driver::open(std::string& why) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    why = fmt::format("no CUDA driver on this machine (dlopen libcuda.so.1: {})", dlerror());
    return false;
  }
  bool ok = true;
  auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (!fn && ok) {
      why = fmt::format("the CUDA driver lacks {}", name);
      ok = false;
    }
  };
  bind(cuInit, "cuInit");
  bind(cuDriverGetVersion, "cuDriverGetVersion");
  bind(cuDeviceGetCount, "cuDeviceGetCount");
  bind(cuDeviceGet, "cuDeviceGet");
  bind(cuDeviceGetName, "cuDeviceGetName");
  bind(cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(cuCtxSynchronize, "cuCtxSynchronize");
  bind(cuModuleLoadDataEx, "cuModuleLoadDataEx");
  bind(cuModuleUnload, "cuModuleUnload");
  bind(cuModuleGetFunction, "cuModuleGetFunction");
  bind(cuModuleGetGlobal, "cuModuleGetGlobal_v2");
  bind(cuFuncGetAttribute, "cuFuncGetAttribute");
  bind(cuFuncSetAttribute, "cuFuncSetAttribute");
  bind(cuMemAlloc, "cuMemAlloc_v2");
  bind(cuMemsetD8, "cuMemsetD8_v2");
  bind(cuMemFree, "cuMemFree_v2");
  bind(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  bind(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  bind(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
  bind(cuStreamCreate, "cuStreamCreate");
  bind(cuStreamSynchronize, "cuStreamSynchronize");
  bind(cuMemHostRegister, "cuMemHostRegister_v2");
  bind(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
  bind(cuMemHostAlloc, "cuMemHostAlloc");
  bind(cuLaunchKernel, "cuLaunchKernel");
  bind(cuEventCreate, "cuEventCreate");
  bind(cuEventRecord, "cuEventRecord");
  bind(cuEventSynchronize, "cuEventSynchronize");
  bind(cuEventElapsedTime, dlsym(lib, "cuEventElapsedTime_v2") ? "cuEventElapsedTime_v2" : "cuEventElapsedTime");
  bind(cuGetErrorName, "cuGetErrorName");
  bind(cuGetErrorString, "cuGetErrorString");
  cuTensorMapEncodeTiled = reinterpret_cast<decltype(cuTensorMapEncodeTiled)>(dlsym(lib, "cuTensorMapEncodeTiled"));
  cuDeviceGetPCIBusId = reinterpret_cast<decltype(cuDeviceGetPCIBusId)>(dlsym(lib, "cuDeviceGetPCIBusId"));
  return ok;
}

std::string Driver::errorName(CUresult r) const {
  const char* s = nullptr;
  if (cuGetErrorName && cuGetErrorName(r, &s) == 0 && s) return s;
  return fmt::format("CUDA error {}", r);
}

std::string Driver::errorString(CUresult r) const {
  const char* s = nullptr;
  if (cuGetErrorString && cuGetErrorString(r, &s) == 0 && s) return s;
  return "";
}

void check(const Driver& d, CUresult r, const char* call) {
  if (r != 0) throw std::runtime_error(fmt::format("{} failed: {} ({})", call, d.errorName(r), d.errorString(r)));
}

}  // namespace td::cuda
