// The bundle's argument values on the host: buffers allocated in memory shared with child processes
// (so a kernel run in an isolated child writes where the parent reads) and initialised from the
// manifest, reproducibly under a seed; scalars as raw bytes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "frontend/manifest.h"
#include "frontend/work_deadline.h"

namespace td {

struct ArgValue {
  const ArgSpec* spec = nullptr;
  void* data = nullptr;      // buffers: shared mapping of `bytes`
  uint64_t bytes = 0;
  uint64_t scalar = 0;       // scalars: the value's bytes
  ~ArgValue();
  ArgValue() = default;
  ArgValue(const ArgValue&) = delete;
  ArgValue& operator=(const ArgValue&) = delete;
  ArgValue(ArgValue&& o) noexcept;
};

// Throws InputError when a buffer exceeds the target's memory or this machine's, or a file init is bad;
// WorkTimedOut when generating or reading the values passes the deadline.
std::vector<ArgValue> makeArguments(const Bundle& b, uint64_t seed, int64_t targetMemoryBytes,
                                    const WorkDeadline& deadline = {});

// A .npy file's values into `dst`, a buffer laid out as `spec` says (converted from the file's dtype when it
// differs); InputError naming `manifest` and the spec's line (or the file itself) for what does not fit.
void readNpy(const std::string& path, const ArgSpec& spec, void* dst, const std::string& manifest,
             const WorkDeadline& deadline = {});

// .npy files, for file("x.npy") initialisers and --save-outputs.
void writeNpy(const std::string& path, const ArgSpec& spec, const void* data, const WorkDeadline& deadline = {});

}  // namespace td
