// --repeat: the outputs of one run against another's, element by element — the symptom users see as
// "results change from run to run" (a race or a missing barrier), reported with buffer and coordinates.
#pragma once
#include <optional>
#include <string>

#include "runtime/buffers.h"
#include "model/finding.h"

namespace td {

// A "nondeterministic-output" finding when `later` differs from `first` (bitwise, per element); the
// names say which runs they were ("forward schedule", "reverse schedule", ...).
std::optional<Finding> diffOutputs(const ArgValue& first, const ArgValue& later, const std::string& firstName,
                                   const std::string& laterName, const WorkDeadline& deadline = {});

}  // namespace td
