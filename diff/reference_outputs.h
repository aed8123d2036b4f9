// What `tile-doctor diff --against REF` compares a kernel's outputs with. REF is read as: "fp64"; an
// executor ("cpu", "cuda"); a target profile's name (the same bundle run for that target on the same
// executor: its own warp size and lowering); else a .npy file (the kernel's one output) or a folder of
// NAME.npy files (one per output, as --save-outputs writes them).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "driver/check.h"

namespace td {

struct Against {
  enum Kind { Fp64, Executor, Target, Files } kind = Files;
  std::string name;  // the executor, the target, or the path
};

// InputError naming --against when REF is none of these.
Against parseAgainst(const std::string& ref);

// The values of every output of `tested` read from `against`'s .npy file or folder, as doubles, by output
// name, at the file's own precision (a float64 reference of a half output stays float64). InputError naming the file when one is missing, unreadable or of another size.
std::map<std::string, std::vector<double>> readReferenceFiles(const Against& against, const CheckResult& tested);

// An output buffer's values as doubles.
std::vector<double> valuesOf(const ArgValue& a);

}  // namespace td
