// Family "race": read-after-write, write-after-read and write-after-write between threads nothing
// orders, in shared memory and in global buffers (checks/race/race_pass, race_runtime.cu).
#include "checks/race/access_history_family.h"

namespace td {

std::vector<Rule> raceRules();  // race_rules.cpp

Family raceFamily() {
  Family f = accessHistoryFamily();
  f.name = "race";
  f.rules = raceRules();
  f.summary = "data races in shared memory and global buffers, within and across blocks";
  f.recordKinds = {TD_KIND_SHARED_RAW, TD_KIND_SHARED_WAR, TD_KIND_SHARED_WAW, TD_KIND_GLOBAL_RAW, TD_KIND_GLOBAL_WAR,
                   TD_KIND_GLOBAL_WAW, TD_KIND_SHARED_SAME_VALUE, TD_KIND_GLOBAL_SAME_VALUE};
  f.options = {{"strict-races",
                "report unordered writes that store the bytes already there (every thread storing one all-reduced "
                "value) as findings; by default they are set aside as benign and named in one note",
                true}};
  return f;
}

}  // namespace td
