// The CUDA driver API, opened with dlopen("libcuda.so.1") at run time so tile-doctor runs (and says
// so clearly) where there is no driver. Only the calls the CUDA executor needs; types are the driver
// ABI's (handles are opaque pointers, CUresult an int, device pointers 64-bit).
#pragma once
#include <cstddef>
#include <string>

namespace td::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

// Enum values of cuda.h (CUDA 12/13).
constexpr int kAttrComputeMajor = 75, kAttrComputeMinor = 76, kAttrMaxSharedPerBlockOptin = 97;
constexpr int kAttrMaxThreadsPerSm = 39, kAttrMaxSharedPerSm = 81, kAttrMaxRegistersPerSm = 82,
              kAttrMaxBlocksPerSm = 106, kAttrReservedSharedPerBlock = 111, kAttrMaxRegistersPerBlock = 12;
constexpr int kFuncSharedSizeBytes = 1, kFuncLocalSizeBytes = 3, kFuncNumRegisters = 4, kFuncMaxDynamicSharedBytes = 8;
constexpr unsigned kHostRegisterPortable = 0x01, kHostRegisterDeviceMap = 0x02, kHostAllocDeviceMap = 0x02;
constexpr int kJitErrorLogBuffer = 5, kJitErrorLogBufferSize = 6;
constexpr unsigned kStreamNonBlocking = 0x1;

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*);
  CUresult (*cuFuncGetAttribute)(int*, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream*, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuMemHostRegister)(void*, size_t, unsigned);
  CUresult (*cuMemHostAlloc)(void**, size_t, unsigned);
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr*, void*, unsigned);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**);
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char**);
  // CUDA 12+ only (null before): builds a Hopper TMA descriptor (CUtensorMap, 128 bytes, 64-byte aligned).
  CUresult (*cuTensorMapEncodeTiled)(void* tensorMap, int dataType, unsigned rank, void* globalAddress,
                                     const unsigned long long* globalDim, const unsigned long long* globalStrides,
                                     const unsigned* boxDim, const unsigned* elementStrides, int interleave,
                                     int swizzle, int l2Promotion, int oobFill);
  CUresult (*cuGetErrorString)(CUresult, const char**);
  CUresult (*cuDeviceGetPCIBusId)(char*, int, CUdevice);  // null where absent: NVML then is not asked

  // Opens the driver; on failure returns false and says why in `why` (no library, missing symbol).
  bool open(std::string& why);
  std::string errorName(CUresult r) const;    // "CUDA_ERROR_ILLEGAL_ADDRESS"
  std::string errorString(CUresult r) const;  // the driver's sentence
};

// Throws std::runtime_error naming the call and the CUDA error when `r` is not CUDA_SUCCESS.
void check(const Driver& d, CUresult r, const char* call);

}  // namespace td::cuda
