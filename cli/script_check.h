// `tile-doctor check kernel.py`: capture the script's TileLang kernels, check each bundle, report them
// together. Shares its options with the bundle form of `check`.
#pragma once
#include <fstream>
#include <string>
#include <vector>

#include "driver/check.h"

namespace td::cli {

struct CheckArgs {
  CheckRequest req;
  std::vector<std::string> params, scriptArgs;
  std::string format = "text", out, saveOutputs, keep, tilelangArch = "sm_80", schedule = "forward";
  std::string launches = "first";  // scripts: which launches are checked (driver/launch_policy.h)
  std::string autotune = "first";  // scripts: @tilelang.autotune takes the first configuration, or checks all
};

// `check kernel.py`: the script failed (an exception, a non-zero exit) and no check found anything.
constexpr int kExitScriptFailed = 5;

bool isScript(const std::string& path);  // a .py file
int checkScript(CheckArgs& args);

void makeOutputFolder(const std::string& dir, const char* option);

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
  std::string path_, staging_;
  bool direct_ = false, written_ = false;
  std::ofstream file_;
};
// Every output buffer (with everyBuffer: every buffer — what a script's launch hands back, since a kernel
// may write any buffer it was given) as DIR/NAME.npy.
void saveOutputs(const CheckResult& res, const std::string& dir, bool everyBuffer = false);

// With format "json": the error object of a run that stopped (docs/report-format.md), written to `out`
// ("" for standard output). Best effort: a failure to write it never hides the error it describes.
void writeJsonError(const std::string& format, const std::string& out, int exitCode, const char* kind,
                    const std::string& file, int line, const std::string& message);

}  // namespace td::cli
