// What the race and init families share: one access history (regions), one device source, one pass, one decoder.
// Each adds its name, its summary and the record kinds it reports.
#pragma once
#include "model/family.h"

namespace td {

Family accessHistoryFamily();

}  // namespace td
