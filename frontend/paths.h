// Where tile-doctor's data files are looked for, relative to the running executable.
#pragma once
#include <string>

namespace td {

std::string executableDir();  // "" when /proc/self/exe cannot be read

}  // namespace td
