// A TileLang-generated source as its wrapper writes it ("a dump": the device kernels, then the host
// functions `init()` and `call(...)` that tilelang's and tilelang-metax's wrapper.py append): what call()
// takes and the launches it makes, read from the text so that `check kernel.maca` needs no manifest.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "frontend/elem_type.h"

namespace td {

struct WrapperParam {
  std::string name, typeText;
  bool isPointer = false;
  std::optional<ElemType> type;  // absent: a type tile-doctor has no buffers of (a stream, a descriptor)
  bool isStream = false;         // cudaStream_t / hipStream_t / mcStream_t: not the kernel's
};

struct WrapperLaunch {
  std::string kernel;
  int line = 0;                     // of the launch in call()
  std::array<std::string, 3> grid{"1", "1", "1"}, block{"1", "1", "1"};  // C expressions over call()'s scalars
  std::string shared = "0";
  std::vector<std::string> args;    // call()'s parameters, in the kernel's order
};

struct HostWrapper {
  std::string dialect = "cuda";     // "maca" (tilelang-metax), "hip" or "cuda", from the includes and file name
  std::vector<WrapperParam> params; // call()'s, in order
  int callLine = 0;
  std::vector<WrapperLaunch> launches;
  // The template folder the source includes (tl_templates/maca, ...) and the line; empty when none.
  std::string templates;
  int templatesLine = 0;
  // The dynamic shared memory init() refuses beyond (MACA's wrapper: `if (N > 65536)`), per kernel; -1: none.
  long long initSharedLimit = -1;
  // The source with the host functions blanked line for line: what the device compile reads (its lines
  // are the dump's, so reports name the user's lines).
  std::string deviceSource;
};

// True when the text has a wrapper's `call(` host function (a dump rather than a plain kernel source).
bool hasHostWrapper(const std::string& text);

// A file named as kernel source: .maca, .cu, .cuh, .cpp, .cc, .hip, .h.
bool isKernelSourceName(const std::string& path);

// A kernel source's text; InputError when it is not a regular file or is over 64 MiB (generated sources
// are kilobytes).
std::string readKernelSource(const std::string& path);

// A kernel-source file holding a wrapper's call(): what `check` reads as a dump (a .maca file always is one).
bool isHostWrapperFile(const std::string& path);

// Reads `text` (the file `path`, for messages). InputError at the line for what it cannot read: no
// call(), a launch form it does not know, a launch argument that is not one of call()'s parameters.
HostWrapper readHostWrapper(const std::string& path, const std::string& text);

}  // namespace td
