// The numerics family's settings: --drift-threshold (when a store or an accumulator is reported) and
// --shadow (the shadow type of half and bfloat16 values).
#pragma once
#include <string>

#include "model/family.h"

namespace td {

// The threshold of the normwise relative drift for a stored type ("half", "bfloat16", "float"): from
// --drift-threshold, either one number for every type or TYPE=NUMBER pairs ("half=1e-3,float=1e-6"; the
// others keep their defaults), else defaultDriftThreshold.
double driftThreshold(const FamilySettings& settings, const std::string& type);

// The highest drift level (numerics_abi.h, TD_NUM_LEVELS) at or below a relative error: what a site records
// and the accumulators are checked against.
int driftLevelAtOrBelow(double relative);

// --shadow fp64: half and bfloat16 values get fp64 shadows (fp32, the default, is exact for one rounding of
// their products and sums, and cheaper).
bool wideShadowsForNarrowTypes(const FamilySettings& settings);

// --subnormals: stores count the subnormal values they write and the zeros exact arithmetic would not have
// given, reported per site (subnormal-values).
bool countsSubnormals(const FamilySettings& settings);

// Set by diff's fp64 reference (no option of its own): the stores to global buffers keep their shadows in
// the family's per-buffer state for the host to read, also where no load of the kernel reads them.
extern const char* const kKeepOutputShadows;
bool keepsOutputShadows(const FamilySettings& settings);

// Throws InputError naming the option for a value it cannot read.
void checkNumericsSettings(const FamilySettings& settings);

}  // namespace td
