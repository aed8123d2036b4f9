// `tile-doctor check kernel.py`: capture the script's TileLang kernels, check each bundle, report them
// together. Shares its options with the bundle form of `check`.
#pragma once
#include <string>
#include <vector>

#include "driver/check.h"

namespace td::cli {

struct CheckArgs {
  CheckRequest req;
  std::vector<std::string> params, scriptArgs;
  std::string format = "text", out, saveOutputs, keep, tilelangArch = "sm_80";
};

bool isScript(const std::string& path);  // a .py file
int checkScript(CheckArgs& args);

void makeOutputFolder(const std::string& dir, const char* option);
void saveOutputs(const CheckResult& res, const std::string& dir);  // every output buffer as DIR/NAME.npy

}  // namespace td::cli
