// The instrumentation the race, init and sync families share (checks/race/race_pass): every tracked
// access and synchronising operation hooked once, each hook taking part in the checks enabled.
#pragma once
#include <map>
#include <set>
#include <string>

namespace llvm {
class Module;
}

namespace td {
struct SiteTable;
using FamilySettings = std::map<std::string, std::string>;

void trackAccessesAndSync(llvm::Module& m, SiteTable& sites, const std::set<std::string>& enabled,
                          const FamilySettings& settings);

}  // namespace td
