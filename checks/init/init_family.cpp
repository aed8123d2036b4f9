// Family "init": reads of shared bytes, or of an init = "uninit" buffer's bytes, that no thread wrote in
// this launch. It shares the race family's access history, device source, pass and decoder.
#include "checks/race/access_history_family.h"

namespace td {

std::vector<Rule> initRules();  // init_rules.cpp

Family initFamily() {
  Family f = accessHistoryFamily();
  f.name = "init";
  f.rules = initRules();
  f.summary = "reads of shared memory or of uninitialised buffers before any thread wrote them";
  f.recordKinds = {TD_KIND_SHARED_UNINIT, TD_KIND_GLOBAL_UNINIT};
  return f;
}

}  // namespace td
