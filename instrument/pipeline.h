// From bundle to instrumented module: compile (or load IR), find the entry, run the check passes,
// link the device runtime. The result is executor-neutral NVPTX IR; executors lower it further.
#pragma once
#include <memory>
#include <set>
#include <string>

#include "model/family.h"
#include "frontend/manifest.h"
#include "instrument/launch_bounds.h"
#include "instrument/private_memory.h"
#include "instrument/target_features.h"
#include "instrument/target_semantics.h"
#include "model/site_table.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace td {

// Check families selected with --checks.
struct CheckSet {
  std::set<std::string> families;
  FamilySettings settings;  // --drift-threshold, --shadow: checked against the enabled families (checkSettings)
  // Containment (instrument/containment_pass.h): every access kept inside the kernel's own memory, whatever
  // families run. The CPU executor runs only contained modules; the GPU bounds a kernel by itself.
  bool contain = true;
  bool has(const std::string& f) const { return families.count(f) != 0; }
  // "bounds,launch" or "all", and the families' settings, each checked by the family that takes it, which
  // must be enabled; throws InputError.
  static CheckSet parse(const std::string& list, const FamilySettings& settings = {});
  static std::set<std::string> known();  // the registered families' names
  // The kernel as written, for what the GPU's assembler allocates to the user's code: the launch family
  // (which instruments nothing) and no containment.
  static CheckSet asWritten();
};

struct KernelModule {
  std::unique_ptr<llvm::LLVMContext> ctx;
  std::unique_ptr<llvm::Module> module;
  SiteTable sites;
  std::string entrySymbol;  // the kernel's name in the IR (mangled for C++ kernels)
  PrivateMemory privateMemory;  // the compiled kernel's stack arrays per thread, before instrumentation
  LaunchBounds launchBounds;    // what __launch_bounds__ says (maxThreads 0: none)
  std::vector<FeatureUse> features;  // hardware features it uses that not every target has
  std::vector<IgnoredStatement> ignored;  // statements the target does not execute, dropped before instrumentation
  bool contained = false;  // ContainmentPass ran: the CPU executor refuses a module without it
  double compileSeconds = 0, instrumentSeconds = 0;
};

// Compiles the bundle's kernel and instruments it with the checks of `checks`; either executor runs it.
// `ignores`: the target profile's statements it does not execute (instrument/target_semantics.h).
KernelModule buildKernelModule(const Bundle& bundle, const CheckSet& checks, const std::vector<std::string>& ignores = {});

// The checks' instrumentation of a compiled module (sites recorded in `sites`), before the device runtime
// is linked: what buildKernelModule does after compiling, and `tile-doctor instrument` on its own.
void instrumentModule(llvm::Module& m, SiteTable& sites, const CheckSet& checks);

// The compiled device runtime (td_core.cuh and every family's device source), linked into `m`; hooks become internal so they inline.
void linkDeviceRuntime(llvm::Module& m);
// The device runtime on its own, as linkDeviceRuntime compiles it (its hooks external).
std::unique_ptr<llvm::Module> compileDeviceRuntime(llvm::LLVMContext& ctx);

// Finds the __global__ function named `entry` (plain or the name before '(' of a demangled C++ name).
llvm::Function* findKernel(llvm::Module& m, const std::string& entry);

}  // namespace td
