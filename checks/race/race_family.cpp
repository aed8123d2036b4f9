// Family "race": read-after-write, write-after-read and write-after-write between threads nothing
// orders, in shared memory and in global buffers (instrument/race_pass, race_runtime.cu).
#include "checks/race/shadow_family.h"

namespace td {

Family raceFamily() {
  Family f = shadowFamily();
  f.name = "race";
  f.summary = "data races in shared memory and global buffers, within and across blocks";
  f.recordKinds = {TD_KIND_SHARED_RAW, TD_KIND_SHARED_WAR, TD_KIND_SHARED_WAW, TD_KIND_GLOBAL_RAW, TD_KIND_GLOBAL_WAR,
                   TD_KIND_GLOBAL_WAW, TD_KIND_SHARED_SAME_VALUE, TD_KIND_GLOBAL_SAME_VALUE};
  f.settingNames = {"strict-races"};  // same-value writes reported as races
  return f;
}

}  // namespace td
