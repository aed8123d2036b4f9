// Where tile-doctor's data files are looked for, relative to the running executable.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace td {

std::string executableDir();  // "" when /proc/self/exe cannot be read

// A data folder shipped with tile-doctor (profiles/, python/): $ENV_VAR when set, else NAME next to the
// executable, one level up (a build folder) or in ../share/tile-doctor, else the source tree's.
std::string dataDir(const std::string& name, const char* envVar);

// Input files are read only when they are regular files: a FIFO or a device (/dev/stdin, /dev/zero)
// would block or never end. Throws InputError(`reportAs`, `line`, ...) naming `what` otherwise.
void requireRegularFile(const std::string& path, const std::string& what, const std::string& reportAs = {}, int line = 0);

// The whole of an input file, read only when it is a regular file (checked on the opened file, so a FIFO
// swapped in after a check is still refused) of at most `limit` bytes: a FIFO, a device (/dev/zero) or
// a file over the limit is InputError(path, 0) naming `what`, never a hang or gigabytes of memory.
std::string readInputFile(const std::string& path, const std::string& what, uint64_t limit);

// Every regular file of a user's folder at most `maxDepth` folders below it (-1: any), leaving out hidden
// folders, __pycache__ and build folders; unreadable folders are skipped. `each` returns false to stop.
void walkUserFiles(const std::filesystem::path& dir, int maxDepth,
                   const std::function<bool(const std::filesystem::path&)>& each);

}  // namespace td
