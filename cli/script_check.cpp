#include "cli/script_check.h"

#include <filesystem>

#include "driver/script_run.h"
#include "sanitizer/reporters.h"

namespace td::cli {

bool isScript(const std::string& path) { return std::filesystem::path(path).extension() == ".py"; }

ScriptCheckRequest scriptRequest(const CheckArgs& args) {
  ScriptCheckRequest req;
  req.check = args.req;
  req.scriptArgs = args.scriptArgs;
  req.tilelangArch = args.tilelangArch;
  req.lowering = args.lowering;
  req.keep = args.keep;
  req.saveOutputs = args.saveOutputs;
  req.launches = args.launches;
  req.autotune = args.autotune;
  req.stdoutToStderr = args.reportOwnsStdout();
  req.channel = args.channel;
  return req;
}

}  // namespace td::cli
