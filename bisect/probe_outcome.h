// What a probe's check came to, read from its JSON report and exit status: the first finding the
// --fail-on condition names is the failure; bad input, an internal error or a kernel the executor cannot
// run at that shape is an outcome the search cannot judge.
#pragma once
#include <nlohmann/json.hpp>

#include "bisect/fail_condition.h"
#include "bisect/probe.h"

namespace td::bisect {

// `report`: the JSON the check wrote (null when it wrote none); `exitCode`: its exit code, or 128 + the
// signal that killed it; `stderrTail`: the end of what it printed on standard error.
ProbeOutcome judgeProbe(const nlohmann::json& report, int exitCode, const std::string& stderrTail,
                        const FailCondition& failOn);

// The outcome of a probe the watchdog killed after `seconds`.
ProbeOutcome judgeKilledProbe(double seconds, const FailCondition& failOn);

}  // namespace td::bisect
