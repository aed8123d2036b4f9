// Family "numerics" (checks/numerics): every half, bfloat16 and float value of the user's code gets a
// wider shadow computed alongside it — fp32 for the 16-bit types (fp64 on request), fp64 for float —
// through arithmetic, fma, phis, selects, vector element operations, conversions (a rounding into a
// narrower type keeps the wide shadow, so it is measured), the math library and warp shuffles. Memory
// keeps shadows in the family's regions (stores write value and shadow, loads take the shadow back while
// the memory still holds that value). Stores to global and shared memory report their drift per site;
// a non-finite result of finite operands is reported where it is born.
#pragma once
#include <map>
#include <string>

#include "model/site_table.h"

namespace llvm {
class Module;
}

namespace td {

struct ShadowOptions {
  bool wideNarrow = false;       // fp64 shadows for half and bfloat16 (--shadow fp64)
  bool countSubnormals = false;  // stores count their subnormal and flushed values (--subnormals)
  bool keepOutputShadows = false;  // global stores keep their shadows for the host (diff's fp64 reference)
  // Per accumulated type ("half", "bfloat16", "float"): the drift level (numerics_abi.h, TD_NUM_LEVELS) at
  // or below its --drift-threshold. An accumulator is checked against it alone: reported once when it gets
  // there, then no more (0 where absent).
  std::map<std::string, int> accumulatorLevels;
};

void shadowFloatingPoint(llvm::Module& m, SiteTable& sites, const ShadowOptions& options = {});

}  // namespace td
