#include "diff/fp64_reference.h"

#include <cstring>

#include "checks/numerics/numerics_abi.h"
#include "checks/numerics/numerics_settings.h"
#include "model/regions.h"
#include "diff/reference_outputs.h"

namespace td {

void requestFp64Shadows(CheckRequest& req) {
  if (req.checks.find("numerics") == std::string::npos) req.checks += ",numerics";
  req.settings["shadow"] = "fp64";
  req.settings[kKeepOutputShadows] = "kept";
  req.readBackBufferStates = true;
}

Fp64Outputs fp64Outputs(const CheckResult& run) {
  Fp64Outputs out;
  for (size_t arg = 0; arg < run.args.size(); ++arg) {
    const ArgValue& a = run.args[arg];
    if (!a.spec->isBuffer || !a.spec->output) continue;
    const RegionReadback* state = nullptr;
    for (const RegionReadback& back : run.bufferStates)
      if (back.arg == static_cast<int>(arg) && back.id == TD_REGION_NUM_BUFFER) state = &back;
    std::vector<double> values = valuesOf(a);
    uint64_t unshadowed = 0;
    size_t elemBytes = elemSize(a.spec->type);
    for (uint64_t i = 0; i < values.size(); ++i) {
      uint64_t granule = isPacked(a.spec->type) ? UINT64_MAX : i * elemBytes / TD_NUM_GRANULE_BYTES;
      td_num_granule g{};
      bool held = state && granule < state->bytes.size() / sizeof(td_num_granule);
      if (held) std::memcpy(&g, state->bytes.data() + granule * sizeof(td_num_granule), sizeof g);
      if (held && g.value == values[i]) values[i] = g.shadow;
      else ++unshadowed;
    }
    out.values[a.spec->name] = std::move(values);
    out.unshadowed[a.spec->name] = unshadowed;
  }
  return out;
}

}  // namespace td
