// The sync family's word on a barrier the target does not execute (instrument/target_semantics): said
// before the run, so a race the run finds between the accesses it separated has its cause beside it.
#pragma once
#include "frontend/profile.h"
#include "instrument/target_semantics.h"
#include "model/finding.h"

namespace td {

Finding ignoredStatementFinding(const IgnoredStatement& s, const Profile& target);

}  // namespace td
