// What a probe's outcome depends on besides its command line: the bundle or script and the files beside
// it (sources, includes, data). A probe cached under another identity is never reused.
#pragma once
#include <string>

namespace td::bisect {

// The input's bytes and the size and modification time of every source, manifest, script, line map and
// .npy file in its folder and the folders below it (at most 4 levels, 4000 files): an edited kernel, header
// or data file changes it; a report written beside it does not.
std::string inputIdentity(const std::string& input);

}  // namespace td::bisect
