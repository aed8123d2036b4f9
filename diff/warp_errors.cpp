#include "diff/warp_errors.h"

#include <cmath>
#include <cstring>

#include "checks/race/race_abi.h"
#include "model/regions.h"

namespace td {

WarpErrors warpErrors(const CheckResult& run, const OutputComparison& c, unsigned warpSize, double rtol, double atol) {
  WarpErrors w;
  w.warpSize = warpSize;
  const ArgValue* out = nullptr;
  size_t arg = 0;
  for (size_t i = 0; i < run.args.size(); ++i)
    if (run.args[i].spec->name == c.name) out = &run.args[i], arg = i;
  if (!out || isPacked(out->spec->type)) return w;
  const RegionReadback* history = nullptr;
  for (const RegionReadback& back : run.bufferStates)
    if (back.arg == static_cast<int>(arg) && back.id == TD_REGION_BUFFER_HISTORY) history = &back;
  if (!history) return w;
  size_t granules = history->bytes.size() / sizeof(td_granule), elemBytes = elemSize(out->spec->type);
  for (uint64_t i = 0; i < c.result.size() && i < c.reference.size(); ++i) {
    uint64_t g = i * elemBytes / 4;
    td_granule granule{};
    if (g < granules) std::memcpy(&granule, history->bytes.data() + g * sizeof(td_granule), sizeof granule);
    unsigned thread = TD_TAG_THREAD(granule.w);
    double ratio = allowanceRatio(c.result[i], c.reference[i], rtol, atol);
    if (thread == 0 || granule.w == TD_TAG_BUSY) {  // no writer, or one stopped mid-update
      ++w.unattributed;
      w.unattributedWorst = std::max(w.unattributedWorst, ratio);
      continue;
    }
    size_t warp = (thread - 1) / warpSize;
    if (warp >= w.elements.size()) w.elements.resize(warp + 1), w.worst.resize(warp + 1), w.mismatched.resize(warp + 1);
    ++w.elements[warp];
    w.worst[warp] = std::max(w.worst[warp], ratio);
    if (ratio > 1) ++w.mismatched[warp];
  }
  return w;
}

}  // namespace td
