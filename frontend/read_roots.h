// Where a kernel's build may read (docs/security.md): a bundle checked in CI may be hostile, and clang
// quotes the lines of whatever file it is made to include into its errors, so `#include "/proc/self/environ"`
// or a manifest's `include = ["../../.git"]` would print the CI's secrets into the report. A manifest's
// source, IR, line map and include folders must lie inside the bundle's own folder (or, for a script's
// captured kernels, the sources tile-doctor's cache keeps for them), a folder the user names
// (--include-root, or TILE_DOCTOR_INCLUDE_ROOTS, ':'-separated), or — for include folders — an installed
// TileLang's source tree; the compile opens no file outside those, the toolchain's headers and the CUDA SDK.
// Paths are compared after resolving links, so a link inside the bundle does not lead out of it.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace td {

// A folder the user allows (--include-root); InputError when it is not one.
void addIncludeRoot(const std::string& dir);
// The user's folders: --include-root ones, then TILE_DOCTOR_INCLUDE_ROOTS's.
std::vector<std::string> includeRoots();

// Why `path` (a manifest's `key`) may not be read for a bundle in `bundleDir`, or nullopt when it may.
std::optional<std::string> outsideTheBundle(const std::string& path, const std::string& bundleDir, const std::string& key);

// The root of the installed TileLang source tree `dir` belongs to (its src/ or 3rdparty/cutlass/include),
// or "" when it is none.
std::string tileLangTreeOf(const std::string& dir);

// `path`, resolved here, lies in one of `resolvedRoots` (resolved by the caller once: the compile asks for
// every file it opens).
bool insideAnyRoot(const std::string& path, const std::vector<std::string>& resolvedRoots);

// The real path of `p`, links resolved as far as it exists.
std::string resolvedPath(const std::string& p);

}  // namespace td
