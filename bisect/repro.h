// The minimal repro of a bisection's failure, written next to the report: for a bundle its manifest at the
// failing shape (parameters set, paths made absolute so it runs from where it lies); for a script a shell
// script running `tile-doctor check` on it with the arguments of the failing shape.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace td::bisect {

// Writes `path`; InputError when the manifest cannot be read or the file written.
// `overrides`: NAME=VALUE as --param takes them; the manifest's [params] are written resolved.
void writeBundleRepro(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& overrides,
                      const std::string& path, const std::string& comment);
void writeScriptRepro(const std::vector<std::string>& command, const std::string& path);

// Where the repro goes: beside --out (its name with .repro.toml / .repro.sh), else in the working folder.
std::string reproPath(const std::string& out, bool script);

}  // namespace td::bisect
