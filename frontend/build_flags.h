// What a manifest's `flags` may hand to clang: what a kernel build needs (-D, -U, -I inside the bundle,
// -std=, -O, warning flags, -include of a header), nothing that loads code into tile-doctor (-fplugin=,
// -fpass-plugin=, -Xclang -load) or writes files (-MD -MF, -Wp,...) — a bundle may come from anyone (a pull
// request a CI stage checks).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace td {

struct RefusedFlag {
  size_t index;        // into the flags
  std::string reason;  // what is wrong with it
};

struct BuildFlags {
  std::vector<std::string> flags;     // as clang takes them: paths named relative to the bundle made absolute there
  std::optional<RefusedFlag> refused; // the first flag a manifest may not pass (then `flags` is incomplete)
};

// A manifest's flags checked and made the bundle's: a relative -I folder, and a relative -include file that
// exists in the bundle's folder, become absolute there (clang would read them from the working directory);
// a header name the include path resolves stays as it is. `bundleDir` is the manifest's folder.
BuildFlags bundleBuildFlags(const std::vector<std::string>& flags, const std::string& bundleDir);

}  // namespace td
