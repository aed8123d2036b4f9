// Findings of kinds that are benign as a rule (Rule::reportedWith: unordered writes of the same bytes) are
// set aside into Report::benign, named in one note, unless the setting that reports them was given.
#pragma once
#include <string>

#include "model/family.h"
#include "model/finding.h"

namespace td {

void setBenignAside(Report& r, const FamilySettings& settings);

// The one note that names what was set aside ("" when nothing was): kinds, places, counts, the option.
std::string benignNote(const Report& r);

}  // namespace td
