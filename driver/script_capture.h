// `tile-doctor check kernel.py`: runs a TileLang script to its end under the capture module (python/
// tile_doctor_capture). Each kernel launch the script makes arrives as a request on a channel (two pipes,
// one JSON object per line); the handler runs it and answers before the script goes on.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sanitizer/run_set.h"  // ScriptNote

namespace td {

struct CaptureRequest {
  std::string script;
  std::vector<std::string> scriptArgs;
  std::string arch = "sm_80";   // the CUDA architecture TileLang lowers for (sm_80: the non-Hopper forms)
  std::vector<std::pair<std::string, std::string>> params;  // values for symbolic dimensions
  std::string keepDir;          // where the bundles go; empty: a temporary folder
  std::string lowering = "auto";   // cuda, hip (the wave-64 stand-in for MACA), maca, or auto (by the profile's wave)
  std::string autotune = "first";  // @tilelang.autotune: take the first configuration, or check all
  nlohmann::json profile;       // the target, for the torch.cuda queries of a script on a machine without GPU
  bool stdoutToStderr = false;  // the report takes standard output (JSON without --out): the script prints to stderr
  std::optional<uint64_t> seed; // seed the script's random generators first (diff's two runs see the same inputs)
  bool memoryTimeline = false;  // record the script's tensor allocations (profile; memory_timeline.py)
  std::string memoryVizPath;    // with memoryTimeline: also write it as a snapshot memory_viz opens (absolute)
  // "READ,WRITE": no script is started; a Python process already running (tile_doctor.checking, the pytest
  // plugin) sends its launches on these descriptors and writes capture.json into keepDir before it closes them.
  std::string channel;
};

struct CapturedKernel {
  std::string bundle, entry, from;   // manifest path, kernel name, script line that compiled it
  std::vector<std::string> unresolved;  // symbolic dimensions without a value
  bool launched = false;             // the script called it (each call was a launch request)
};

struct CaptureResult {
  std::string dir;
  bool temporary = false;           // remove `dir` when done
  std::string tilelangVersion;
  std::string lowering;             // which lowering ran, as the report says it
  bool hostDevice = false;          // no GPU: the script's CUDA tensors lived in host memory
  std::vector<CapturedKernel> kernels;
  std::vector<ScriptNote> notes;
  int scriptExit = 0;               // the script's exit status (1 for an uncaught exception)
  std::string exitWhere, exitWhy;   // where and why it failed ("" when it ran through)
  bool interrupted = false;         // the interpreter died (signal) before it could say how the script ended
  nlohmann::json memory;            // memoryTimeline: the timeline the script's run wrote (null when none)
};

// Answers one launch request ({"op": "launch", "bundle", "outputs", ...}) with {"ran": bool, "message"}.
using LaunchHandler = std::function<nlohmann::json(const nlohmann::json& request)>;

// The interpreter: $TILE_DOCTOR_PYTHON, else scripts/setup-tilelang.sh's .venv-tilelang in the source tree,
// else python3 on PATH.
std::string capturePython();

// Throws InputError naming the script (and line) when TileLang cannot be loaded or a kernel could not
// become a bundle. Launch requests are answered by `onLaunch` while the script runs.
CaptureResult captureScript(const CaptureRequest& req, const LaunchHandler& onLaunch);

}  // namespace td
