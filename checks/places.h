// Where in the user's memory a byte offset lies, as reports name it: the buffer's element coordinates or
// the shared array's, and the finding's buffer, element and offset fields filled on the way. Shared by the
// families whose records carry an offset (race and init, numerics).
#pragma once
#include <cstdint>
#include <string>

#include "frontend/manifest.h"
#include "model/finding.h"

namespace td {

// "C[3, 5] (byte offset 52)", from a byte offset into kernel argument buffer `s.object`.
std::string globalPlace(const Site& s, int64_t offset, const Bundle& b, Finding& f);

// "__shared__ tile[1] (byte offset 4)", from an offset in the site's shared array when it is known, else in
// the block's window.
std::string sharedPlace(const Site& s, int64_t offset, const SiteTable& sites, Finding& f);

}  // namespace td
