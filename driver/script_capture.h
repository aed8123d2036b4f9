// `tile-doctor check kernel.py`: runs a TileLang script under the capture module (python/
// tile_doctor_capture) and reads back the bundles it wrote, one per kernel the script compiled.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace td {

struct CaptureRequest {
  std::string script;
  std::vector<std::string> scriptArgs;
  std::string arch = "sm_80";   // the CUDA architecture TileLang lowers for (sm_80: the non-Hopper forms)
  std::vector<std::pair<std::string, std::string>> params;  // values for symbolic dimensions
  std::string keepDir;          // where the bundles go; empty: a temporary folder
};

struct CapturedKernel {
  std::string bundle, entry, from;   // manifest path, kernel name, script line that compiled it
  std::vector<std::string> unresolved;  // symbolic dimensions without a value
};

struct CaptureResult {
  std::string dir;
  bool temporary = false;           // remove `dir` when done
  std::string tilelangVersion;
  std::vector<CapturedKernel> kernels;
  std::string stoppedWhere, stoppedWhy;  // where and why the script ended early ("" when it ran through)
};

// The interpreter: $TILE_DOCTOR_PYTHON, else scripts/setup-tilelang.sh's .venv-tilelang in the source tree,
// else python3 on PATH.
std::string capturePython();

// Throws InputError naming the script (and line) when TileLang cannot be loaded, the script captured
// nothing, or a kernel could not become a bundle.
CaptureResult captureScript(const CaptureRequest& req);

}  // namespace td
