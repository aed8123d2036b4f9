// The kernel bundle: a TOML manifest (format version 1, docs/bundle-format.md) naming the kernel source,
// its parameters, launch configuration and arguments. Parsing resolves every expression.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "frontend/elem_type.h"
#include "frontend/expr.h"
#include "frontend/tensor_map.h"

namespace td {

struct InitSpec {
  enum Kind { Zeros, Ones, Fill, Arange, Uniform, Normal, File, Uninit } kind = Zeros;
  double a = 0, b = 0;   // fill value; uniform bounds; normal mean and std
  std::string file;      // for File, absolute path
  std::string text;      // as written, for messages
};

struct ArgSpec {
  std::string name;
  int line = 0;                    // manifest line of the [[args]] entry
  bool isBuffer = false;
  bool isTensorMap = false;        // buffers: passed as a Hopper TMA descriptor over it (frontend/tensor_map.h)
  TensorMapSpec tensorMap;
  ElemType type = ElemType::F32;
  std::vector<int64_t> shape;      // buffers only
  // The elements the allocation holds where that is not the shape's product: a strided view's storage,
  // which the view's coordinates (the shape) index and which ends where the storage does. 0: the product.
  uint64_t storageElements = 0;
  InitSpec init;                   // buffers only
  bool output = false;
  double floatValue = 0;           // scalars
  int64_t intValue = 0;
  uint64_t elementCount() const;
  uint64_t byteSize() const { return storageBytes(type, elementCount()); }
};

struct Bundle {
  std::string manifestPath;        // as given
  std::string dir;                 // directory holding the manifest
  std::string sourcePath;          // absolute; empty when irPath is set
  std::string irPath;              // .ll or .bc
  std::string entry;
  std::vector<std::string> flags;  // ${NAME} substituted
  std::vector<std::string> includeDirs;
  std::string headers = "prelude";  // "prelude" (no SDK), "cuda" (the CUDA SDK's headers), "none" (preprocessed)
  std::string arch = "sm_80";       // the GPU architecture the source is written for
  int headersLine = 0;
  // The source's dialect: "cuda", "hip" (HIP for a wave-64 GPU: TileLang's HIP lowering, the stand-in
  // for MetaX's MACA) or "maca" (tilelang-metax's output); frontend/hip_dialect.h.
  std::string dialect = "cuda";
  int dialectLine = 0;
  std::string lineMapPath;          // absolute; generated line -> script line (TileLang bundles)
  ParamMap params;
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{1, 1, 1};
  int64_t threadsPerBlock() const { return block[0] * block[1] * block[2]; }
  int64_t dynamicShared = 0;
  // The dynamic shared memory the target's own lowering allocates, where the source that runs is a
  // stand-in lowered differently (MACA's pipeline keeps num_stages buffers; the HIP stand-in's one); -1:
  // the same as dynamicShared. Launch limits are checked against it.
  int64_t targetShared = -1;
  int targetSharedLine = 0;
  std::vector<ArgSpec> args;
  int entryLine = 0;
  int sharedLine = 0;               // manifest line of launch.shared (or of [launch])
};

// Parses the manifest at `path`; `overrides` are --param NAME=VALUE settings (values may be expressions).
// Throws InputError with the manifest's file:line.
Bundle loadBundle(const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides);

}  // namespace td
