#include "history/run_db.h"

#ifndef TD_VERSION
#define TD_VERSION "unknown"
#endif

namespace td {

const char* toolVersion() { return "0.1+" TD_VERSION; }

}  // namespace td
