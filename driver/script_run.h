// `check kernel.py` as runs: the script runs in a child (driver/script_capture) and every TileLang launch
// it makes is checked (or run uninstrumented, driver/launch_policy) before the script goes on; kernels it
// compiled and never launched are checked with their bundles' inputs. The CLI renders the RunSet.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "driver/check.h"
#include "sanitizer/run_set.h"

namespace td {

struct ScriptCheckRequest {
  CheckRequest check;  // bundlePath: the script; the rest as every launch's check takes it
  std::vector<std::string> scriptArgs;
  std::string tilelangArch = "sm_80", lowering = "auto", keep, saveOutputs;
  std::string launches = "first";  // which launches are checked (driver/launch_policy.h)
  std::string autotune = "first";  // @tilelang.autotune takes the first configuration, or checks all
  bool stdoutToStderr = false;     // the report takes standard output: the script's prints go to stderr
  std::optional<uint64_t> seedScript;  // seed the script's random generators before it runs
  std::string channel;                // READ,WRITE of a Python process already running (`serve`); keep: its folder
  bool memoryTimeline = false;         // record the script's tensor allocations (ScriptRun::memory)
  std::string memoryVizPath;           // and export them for PyTorch's memory_viz (ScriptRun::memory["memory_viz"])
  // Called after each checked launch (and each kernel never launched) with its run and its result, while
  // its bundle is still on disk: what `diff kernel.py` compares.
  std::function<void(const Run& item, const CheckResult& result)> onChecked;
};

// What the capture answers torch.cuda's and TVM's device queries from on a machine without a GPU (docs/
// capture-channel.md's --profile; `targets --format json` prints it for tile_doctor.checking).
nlohmann::json captureProfileJson(const std::string& target);

// Throws InputError when the script compiled no TileLang kernel.
RunSet checkScriptRuns(const ScriptCheckRequest& req);

}  // namespace td
