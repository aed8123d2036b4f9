// Family "bounds": every global and shared access checked against its buffer or array (instrument/
// bounds_pass), out-of-bounds and misaligned accesses recorded and skipped. No device state of its own.
#include "checks/family.h"

namespace td {

Family boundsFamily() {
  Family f;
  f.name = "bounds";
  f.summary = "accesses outside their buffer or shared array, and misaligned ones";
  f.deviceSources = {"checks/bounds/bounds_runtime.cu"};
  return f;
}

}  // namespace td
