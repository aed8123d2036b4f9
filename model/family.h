// A check family is one descriptor: its name, the device state it needs (regions, abi.h), its device
// source, and what turns that state into something the collector reads after a launch. Executors never
// see a family: they allocate the regions the enabled families ask for, by scope, and lower the generic
// primitives the device sources call. The family list is checks/families.cpp; a test may add its own.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/rule.h"
#include "model/site_table.h"
#include "model/abi.h"

namespace llvm {
class Module;
}

namespace td {

struct LaunchOutcome;
struct Bundle;
struct Profile;
struct KernelModule;
struct Finding;
struct RecordGroup;

// A file the device runtime's translation unit is built from, as clang finds it in the prelude folder.
struct DeviceFile {
  std::string path;  // e.g. "checks/race/race_runtime.cu"
  std::string text;
};

// Settings of the families as the user gave them (--drift-threshold, --shadow), by option name.
using FamilySettings = std::map<std::string, std::string>;

// One setting of a family. Given on the command line as --NAME VALUE, or --NAME alone for a switch (whose
// value is then "on"); the driver's internal settings (diff's, for instance) have no option.
struct FamilyOption {
  std::string name;  // without dashes: "drift-threshold"
  std::string help;  // the option's --help line; the family's name is put before it
  bool isSwitch = false;
  bool internal = false;
};

// The assembler's count of a kernel's registers, for a block whose registers may not fit the target.
struct RegisterUse {
  int64_t perThread = 0, perBlock = 0;  // perBlock as allocated (per warp, rounded)
  std::string source;                   // "ptxas 13.0 -v, sm_90"
  SourceLoc kernel;                     // where the kernel is defined
};

// What a family may look at on the host before the launch: the bundle, the target, the compiled and
// instrumented module (instrument/pipeline.h) and, asked only where needed (it runs the target's
// assembler), the kernel's registers — empty where they surely fit or no assembler is found.
struct BeforeLaunch {
  const Bundle& bundle;
  const Profile& target;
  const KernelModule& module;
  uint64_t staticSharedBytes;
  std::function<std::optional<RegisterUse>()> registers;
};

struct Family {
  std::string name;     // as --checks names it
  std::string summary;  // one line, for `tile-doctor rules` and --help
  bool byDefault = true;  // part of --checks all (the default); false: only when named
  bool readsAmdgpuIr = false;  // its pass instruments AMDGPU IR too (`tile-doctor instrument`), or it has none
  // Its device state: scope, flags and size of each region it uses (id = the td_region's index;
  // families that share a region declare it alike).
  std::vector<std::pair<unsigned, td_region>> regions;
  // Hooks of its own that model/hooks.def does not list, by symbol: a family kept in its folder alone (the
  // test family) declares its hooks there; the built-in families' are lines of hooks.def.
  std::vector<std::string> ownHooks;
  // Its device sources (#included, each once, into the runtime's one translation unit), empty for a
  // family checked on the host only; and files of its own not built in (a test's family), by path.
  std::vector<std::string> deviceSources;
  std::vector<DeviceFile> deviceFiles;
  // Its instrumentation of a kernel module, before the device runtime is linked. Called once per module
  // when the family is enabled - once for all of them where families share one (the same function) -
  // in the family list's order. May be null (a host-only family).
  void (*instrument)(llvm::Module& m, SiteTable& sites, const std::set<std::string>& enabled,
                     const FamilySettings& settings) = nullptr;
  // The settings it takes — each a command-line option of check, diff and bisect-shape unless internal —
  // and what says whether their values are good (throws InputError naming the option); may be null.
  std::vector<FamilyOption> options;
  void (*checkSettings)(const FamilySettings& settings) = nullptr;
  // Before the launch, on the host, in the family list's order: findings decided from the module and the
  // target alone. Returns false where the launch must not run (the driver or the target's compiler would
  // refuse it); the run then reports every family's findings so far. May be null.
  bool (*beforeLaunch)(const BeforeLaunch& in, std::vector<Finding>& into) = nullptr;
  // After a launch: turns regions read back into what the collector reads (e.g. hang waiters); may be null.
  void (*afterLaunch)(LaunchOutcome& out, const SiteTable& sites, const Bundle& b) = nullptr;
  // The record kinds (abi.h TD_KIND_*) its device source writes, and what makes a finding of one site's
  // records of one kind. Kinds no family claims are the run's own (device asserts, traps).
  std::vector<unsigned> recordKinds;
  Finding (*decode)(const RecordGroup& group, const SiteTable& sites, const Bundle& b) = nullptr;
  // Findings of its own beyond the records the collector decodes (e.g. from a region read back); may be null.
  void (*collect)(const LaunchOutcome& out, const SiteTable& sites, const Bundle& b, const FamilySettings& settings,
                  std::vector<Finding>& into) = nullptr;
  // The rules of the kinds this family reports (model/rule.h; ids in model/rules.h for built-in families).
  std::vector<Rule> rules;
};

// Every family, in the order they instrument a module (the access tracking of race, init and sync sees
// the pointers before bounds redirects skipped accesses), lay out regions and include device sources.
const std::vector<Family>& families();
const Family* findFamily(const std::string& name);
// The registered families' names, sorted and joined with ", " (for help texts and error messages).
std::string familyNames();
const Family* familyOfRecordKind(unsigned kind);  // nullptr: none claims it
// For tests: adds a family (its name must be new, its region ids free or declared alike) and takes it
// away again. Not thread-safe; call while no check runs.
void registerFamily(Family f);
void unregisterFamily(const std::string& name);

// A region template as a family declares it.
td_region regionOf(unsigned scope, unsigned flags, unsigned fixedBytes, unsigned bytesPerWord = 0,
                   unsigned bytesPerSite = 0, unsigned slot = 0, unsigned wordShift = 0);

// The regions the named families need, as the control block's table (absent ones zero).
std::vector<td_region> regionTable(const std::set<std::string>& enabled);

// The device runtime's translation unit (td_core.cuh, then every family's source) and the files it includes.
std::string deviceRuntimeSource();
std::vector<DeviceFile> deviceRuntimeFiles();

}  // namespace td
