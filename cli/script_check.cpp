#include "cli/script_check.h"

#include <filesystem>

#include "driver/script_run.h"
#include "sanitizer/reporters.h"

namespace td::cli {

bool isScript(const std::string& path) { return std::filesystem::path(path).extension() == ".py"; }

int checkScript(CheckArgs& args) {
  ReportSink sink(args);
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
  RunSet set = checkScriptRuns(req);
  sink.write(makeReporter(args.format, sink.colour())->render(set));
  return set.exitCode();
}

}  // namespace td::cli
