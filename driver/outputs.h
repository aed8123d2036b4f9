// Buffers written out as .npy files: --save-outputs, and what a script's launch hands back.
#pragma once
#include <string>

#include "driver/check.h"

namespace td {

// Creates DIR (and its parents); "" does nothing. Bad input naming the option when it cannot.
void makeOutputFolder(const std::string& dir, const char* option);

// Every output buffer (with everyBuffer: every buffer — what a script's launch hands back, since a kernel
// may write any buffer it was given) as DIR/NAME.npy; "" does nothing.
void saveOutputs(const CheckResult& res, const std::string& dir, bool everyBuffer = false);

}  // namespace td
