// Findings of the race and initialisation checks, from their records (td_race_payload): both accesses
// with their source lines and threads, the buffer or shared array and the element.
#pragma once
#include <vector>

#include "frontend/manifest.h"
#include "model/abi.h"
#include "model/finding.h"
#include "model/records.h"

namespace td {

// A race (TD_KIND_*_RAW, _WAR, _WAW) or an uninitialised read (TD_KIND_*_UNINIT) at one site: families
// "race" and "init" decode their records with it.
Finding raceFinding(const RecordGroup& g, const SiteTable& sites, const Bundle& b);

}  // namespace td
