// Family "numerics": FP32/FP64 shadows of the kernel's half, bfloat16 and float values (instrument/
// shadow_pass), per-site drift and the birth of non-finite values. Part of --checks all since its cost
// met its target: at most 3x the unchecked run on the CPU executor and the H200 (docs/performance.md).
#include "checks/family.h"

#include "checks/numerics/numerics_abi.h"
#include "checks/regions.h"
#include "checks/numerics/numerics_findings.h"
#include "checks/numerics/numerics_settings.h"
#include "instrument/shadow_pass.h"

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

Family numericsFamily() {
  Family f;
  f.name = "numerics";
  f.summary = "precision drift of half/bfloat16/float stores against wider shadows, and where NaN and Inf are born";
  f.regions = {
      {TD_REGION_NUM_SHARED, regionOf(TD_SCOPE_BLOCK, 0, 0, 4 / TD_NUM_GRANULE_BYTES * sizeof(td_num_granule))},
      {TD_REGION_NUM_BUFFER, regionOf(TD_SCOPE_BUFFER, 0, 0, 4 / TD_NUM_GRANULE_BYTES * sizeof(td_num_granule), 0, 1)},
      {TD_REGION_NUM_SITES, regionOf(TD_SCOPE_GRID, TD_REGION_READ_BACK, 0, 0, TD_NUM_SLOTS * sizeof(td_num_site))},
      {TD_REGION_NUM_LANES, regionOf(TD_SCOPE_THREAD, 0, TD_NUM_LANE_DOUBLES * sizeof(double))}};
  f.deviceSources = {"checks/numerics/numerics_runtime.cu"};
  f.instrument = shadowValues;
  f.recordKinds = {TD_KIND_FP_OVERFLOW, TD_KIND_FP_INVALID};
  f.decode = nonFiniteFinding;
  f.collect = driftFindings;
  f.settingNames = {"drift-threshold", "shadow", "subnormals", kKeepOutputShadows};
  f.checkSettings = checkNumericsSettings;
  return f;
}

}  // namespace td
