// Family "numerics": FP32/FP64 shadows of the kernel's half, bfloat16 and float values (instrument/
// shadow_pass), per-site drift and the birth of non-finite values. Part of --checks all since its cost
// met its target: at most 3x the unchecked run on the CPU executor and the H200 (docs/performance.md).
#include "model/family.h"

#include "checks/numerics/numerics_abi.h"
#include "model/regions.h"
#include "checks/numerics/numerics_findings.h"
#include "checks/numerics/numerics_settings.h"
#include "checks/numerics/shadow_pass.h"

namespace td {

namespace {

void shadowValues(llvm::Module& m, SiteTable& sites, const std::set<std::string>&, const FamilySettings& settings) {
  ShadowOptions options;
  options.wideNarrow = wideShadowsForNarrowTypes(settings);
  options.countSubnormals = countsSubnormals(settings);
  options.keepOutputShadows = keepsOutputShadows(settings);
  for (const char* type : {"half", "bfloat16", "float"})
    options.accumulatorLevels[type] = driftLevelAtOrBelow(driftThreshold(settings, type));
  shadowFloatingPoint(m, sites, options);
}

}  // namespace

std::vector<Rule> numericsRules();  // numerics_rules.cpp

Family numericsFamily() {
  Family f;
  f.name = "numerics";
  f.rules = numericsRules();
  f.summary = "precision drift of half/bfloat16/float stores against wider shadows, and where NaN and Inf are born";
  f.regions = {
      {TD_REGION_NUM_SHARED, regionOf(TD_SCOPE_BLOCK, TD_REGION_PREFER_SHARED_IF_FREE, 0, 4 / TD_NUM_GRANULE_BYTES * sizeof(td_num_granule))},
      {TD_REGION_NUM_BUFFER, regionOf(TD_SCOPE_BUFFER, 0, 0, 4 / TD_NUM_GRANULE_BYTES * sizeof(td_num_granule), 0, 1)},
      {TD_REGION_NUM_SITES, regionOf(TD_SCOPE_GRID, TD_REGION_READ_BACK, 0, 0, TD_NUM_SLOTS * sizeof(td_num_site))},
      {TD_REGION_NUM_LANES, regionOf(TD_SCOPE_THREAD, 0, TD_NUM_LANE_DOUBLES * sizeof(double))}};
  f.deviceSources = {"checks/numerics/numerics_runtime.cu"};
  f.instrument = shadowValues;
  f.recordKinds = {TD_KIND_FP_OVERFLOW, TD_KIND_FP_INVALID};
  f.decode = nonFiniteFinding;
  f.collect = driftFindings;
  f.options = {
      {"drift-threshold",
       "report a store or an accumulator whose normwise relative drift passes this: one number, or TYPE=NUMBER "
       "pairs (half=1e-3,bfloat16=1e-2,float=1e-6); defaults half 2^-9, bfloat16 2^-6, float 1e-4"},
      {"shadow", "the shadow type of half and bfloat16 values, fp32 (default) or fp64"},
      {"subnormals", "count the subnormal values each store writes, and the zeros exact arithmetic would not give",
       true},
      {kKeepOutputShadows, "outputs' shadows kept for diff's fp64 reference", false, true}};
  f.checkSettings = checkNumericsSettings;
  return f;
}

}  // namespace td
