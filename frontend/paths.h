// Where tile-doctor's data files are looked for, relative to the running executable.
#pragma once
#include <string>

namespace td {

std::string executableDir();  // "" when /proc/self/exe cannot be read

// A data folder shipped with tile-doctor (profiles/, python/): $ENV_VAR when set, else NAME next to the
// executable, one level up (a build folder) or in ../share/tile-doctor, else the source tree's.
std::string dataDir(const std::string& name, const char* envVar);

}  // namespace td
