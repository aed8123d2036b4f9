// `tile-doctor check kernel.py`: capture the script's TileLang kernels, check each bundle, report them
// together. Shares its options with the bundle form of `check`.
#pragma once
#include <CLI/CLI.hpp>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/check.h"
#include "driver/script_run.h"
#include "frontend/staged_file.h"
#include "sanitizer/run_set.h"

namespace td::cli {

struct CheckArgs {
  // The report takes standard output in a format programs read: nothing else may print there.
  bool reportOwnsStdout() const;

  CheckRequest req;
  std::vector<std::string> params, scriptArgs;
  std::vector<std::string> shapes, inits;  // generated sources: --shape, --init (driver/wrapper_run.h)
  std::string macaTemplates;
  std::string format = "text", out, saveOutputs, keep, tilelangArch = "sm_80", lowering = "auto", schedule = "forward";
  std::string launches = "first";  // scripts: which launches are checked (driver/launch_policy.h)
  std::string autotune = "first";  // scripts: @tilelang.autotune takes the first configuration, or checks all
  // check's own (cli/check_command.cpp): its inputs and the CI options over all of them
  std::vector<std::string> inputs;
  std::string suppressions, baseline, db, shard;
  std::vector<std::string> reports;  // --report FORMAT:FILE: the report again, in another format
  // serve's (cli/serve_command.cpp): a Python process already running talks on these descriptors, READ,WRITE
  std::string channel;
};

// check's work over its inputs: runs each, applies suppressions and baseline, records --db, writes the
// report; returns the exit code. `command` is the command line the history records.
int checkInputs(CheckArgs& args, const std::string& command);
// The command line as one string, as the history records it.
std::string commandLine(int argc, char** argv);

bool isScript(const std::string& path);  // a .py file

// --report FORMAT:FILE (repeatable), for check and serve.
void addReportOption(CLI::App* sub, const std::shared_ptr<CheckArgs>& args);

// The options `check` takes beyond its input (also those of `diff`, which runs checks).
void addCheckOptions(CLI::App* sub, const std::shared_ptr<CheckArgs>& args);
// Runs `work` after reading the options it shares with `check` (--param, --schedule, --launches, ...);
// a run that stops (bad input, timeout, an executor that cannot run it, an internal error) writes the
// --format's stop report and rethrows for main() to give the exit code.
int runWritingStops(CheckArgs& args, const std::function<int()>& work);
// What follows `--` on the command line: the script's own arguments. main() takes them off before CLI11
// parses, so that inputs (several for check) and script arguments never mix.
void setScriptArguments(std::vector<std::string> args);
const std::vector<std::string>& scriptArguments();
// The script run the options ask for (what `check kernel.py` runs, and `diff kernel.py` too).
ScriptCheckRequest scriptRequest(const CheckArgs& args);

// Where the report goes (--out FILE or standard output). Opened, with the output folders made, before
// anything runs, so a bad path costs no run; written before outputs are saved, so nothing is lost.
class ReportSink {
 public:
  explicit ReportSink(const CheckArgs& args);  // --out, and the --save-* folders made
  explicit ReportSink(const std::string& path);  // "" for standard output
  ~ReportSink();
  bool colour() const;  // a terminal
  // Writes the whole report, once; a write that fails is an error naming the destination (exit 2).
  void write(const std::string& text);

 private:
  std::string path_;
  std::optional<StagedFile> staged_;  // a regular file (or none yet) at --out
  std::ofstream direct_;              // a device or a pipe at --out
};

// What the --format's reporter says of a run that stopped before its report (JSON: the error object of
// docs/report-format.md; text: nothing, the message on stderr says it), written to `out` ("" for
// standard output). Best effort: a failure to write it never hides the error it describes.
void writeStopReport(const std::string& format, const std::string& out, int exitCode, const char* kind,
                    const std::string& file, int line, const std::string& message);

}  // namespace td::cli
