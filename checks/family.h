// A check family is one descriptor: its name, the device state it needs (regions, abi.h), its device
// source, and what turns that state into something the collector reads after a launch. Executors never
// see a family: they allocate the regions the enabled families ask for, by scope, and lower the generic
// primitives the device sources call. The family list is checks/families.cpp; a test may add its own.
#pragma once
#include <string>
#include <vector>

#include "runtime/abi.h"

namespace td {

struct LaunchOutcome;
struct SiteTable;
struct Bundle;

// A file the device runtime's translation unit is built from, as clang finds it in the prelude folder.
struct DeviceFile {
  std::string path;  // e.g. "checks/race/race_runtime.cu"
  std::string text;
};

struct Family {
  std::string name;     // as --checks names it
  std::string summary;  // one line, for `tile-doctor rules` and --help
  // Its device state: scope, flags and size of each region it uses (id = the td_region's index;
  // families that share a region declare it alike).
  std::vector<std::pair<unsigned, td_region>> regions;
  // Its device sources (#included, each once, into the runtime's one translation unit), empty for a
  // family checked on the host only; and files of its own not built in (a test's family), by path.
  std::vector<std::string> deviceSources;
  std::vector<DeviceFile> deviceFiles;
  // After a launch: turns regions read back into what the collector reads (e.g. hang waiters); may be null.
  void (*afterLaunch)(LaunchOutcome& out, const SiteTable& sites, const Bundle& b) = nullptr;
};

// Every family, in the order their regions are laid out and their device sources included.
const std::vector<Family>& families();
const Family* findFamily(const std::string& name);
// For tests: adds a family (its name must be new). Not thread-safe; call before any check runs.
void registerFamily(Family f);

// A region template as a family declares it.
td_region regionOf(unsigned scope, unsigned flags, unsigned fixedBytes, unsigned bytesPerWord = 0,
                   unsigned bytesPerSite = 0, unsigned slot = 0);

// The regions the named families need, as the control block's table (absent ones zero).
std::vector<td_region> regionTable(const std::vector<std::string>& enabled);

// The device runtime's translation unit (td_core.cuh, then every family's source) and the files it includes.
std::string deviceRuntimeSource();
std::vector<DeviceFile> deviceRuntimeFiles();

}  // namespace td
