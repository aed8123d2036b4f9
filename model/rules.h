// Every finding kind tile-doctor reports, with its rule metadata, in one registry: the code that makes
// findings names kinds by these constants, `tile-doctor rules` prints the table, and reporters (SARIF's
// rules[] later) read it. A kind is a finding's `kind` in the reports (docs/report-format.md).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "model/rule.h"

namespace td {

namespace rule {
inline constexpr const char* GlobalOutOfBounds = "global-out-of-bounds";
inline constexpr const char* SharedOutOfBounds = "shared-out-of-bounds";
inline constexpr const char* MisalignedAccess = "misaligned-access";
inline constexpr const char* SharedMemoryLimit = "shared-memory-limit";
inline constexpr const char* ThreadsPerBlockLimit = "threads-per-block-limit";
inline constexpr const char* GridLimit = "grid-limit";
inline constexpr const char* PrivateMemoryLimit = "private-memory-limit";
inline constexpr const char* RegisterLimit = "register-limit";
inline constexpr const char* TargetUnsupported = "target-unsupported";
inline constexpr const char* LaunchBoundsDefault = "launch-bounds-default";
inline constexpr const char* KernelFault = "kernel-fault";
inline constexpr const char* KernelHang = "kernel-hang";
inline constexpr const char* KernelStillRunning = "kernel-still-running";
inline constexpr const char* Deadlock = "deadlock";
inline constexpr const char* KernelCrash = "kernel-crash";
inline constexpr const char* RecordsOverwritten = "records-overwritten";
inline constexpr const char* WildAccess = "wild-access";
inline constexpr const char* LaunchRejected = "launch-rejected";
inline constexpr const char* DeviceAssert = "device-assert";
inline constexpr const char* DeviceTrap = "device-trap";
inline constexpr const char* SharedRaceRaw = "shared-race-raw";
inline constexpr const char* SharedRaceWar = "shared-race-war";
inline constexpr const char* SharedRaceWaw = "shared-race-waw";
inline constexpr const char* GlobalRaceRaw = "global-race-raw";
inline constexpr const char* GlobalRaceWar = "global-race-war";
inline constexpr const char* GlobalRaceWaw = "global-race-waw";
inline constexpr const char* SharedRaceSameValue = "shared-race-same-value";
inline constexpr const char* GlobalRaceSameValue = "global-race-same-value";
inline constexpr const char* UninitializedSharedRead = "uninitialized-shared-read";
inline constexpr const char* UninitializedGlobalRead = "uninitialized-global-read";
inline constexpr const char* BarrierDivergence = "barrier-divergence";
inline constexpr const char* WarpMask = "warp-mask";
inline constexpr const char* WarpSizeAssumption = "warp-size-assumption";
inline constexpr const char* BarrierIgnored = "barrier-ignored";
inline constexpr const char* NondeterministicOutput = "nondeterministic-output";
inline constexpr const char* PrecisionDrift = "precision-drift";
inline constexpr const char* SubnormalValues = "subnormal-values";
inline constexpr const char* FpOverflow = "fp-overflow";
inline constexpr const char* FpInvalid = "fp-invalid";
}  // namespace rule

// What findings of a kind report besides kind, message and count (Rule::fields), shared by kinds alike.
namespace fields {
inline const std::vector<const char*> access = {"location", "buffer", "coordinates", "element", "byte_offset",
                                                "access", "width", "threads"};
inline const std::vector<const char*> race = {"location", "other_access", "buffer", "coordinates", "element",
                                              "byte_offset", "access", "width", "threads"};
inline const std::vector<const char*> limit = {"location"};
inline const std::vector<const char*> stop = {"location", "threads"};
inline const std::vector<const char*> wild = {"location", "buffer", "byte_offset", "access", "width", "threads"};
inline const std::vector<const char*> sync = {"location", "threads"};
}  // namespace fields

// Every kind: each registered family's (Family::rules, in the family list's order), then the run's own
// ("run": how a launch ended; "repeat": --repeat's comparison).
std::vector<Rule> allRules();
const Rule* findRule(std::string_view id);  // nullptr for an unknown kind
// Whether some kind's rule names this family: a registered family's name, "run" or "repeat".
bool isRuleFamily(std::string_view family);
const char* severityName(Severity s);      // "error", "warning"

}  // namespace td
