#include "model/rules.h"

#include "model/family.h"

namespace td {

namespace {

// The run's own kinds (how a launch ended) and --repeat's; each family's are in its folder (Family::rules).
const std::vector<Rule>& runRules() {
  static const std::vector<Rule> rules = {
      {rule::KernelFault, "run", Severity::Error, "The kernel faulted",
       "The kernel stopped on an access the checks did not cover (a pointer from no argument) or an illegal "
       "instruction.",
       "Run it on the CPU executor to see the thread and the instruction.", fields::stop},
      {rule::KernelHang, "run", Severity::Error, "The kernel did not finish within --timeout",
       "Threads spin, or wait at barriers that never complete.",
       "Look at where the threads wait; a barrier inside a branch only some threads take is the usual cause.",
       fields::stop},
      {rule::KernelStillRunning, "run", Severity::Error, "The kernel was still running when --timeout ran out",
       "The run made progress to the end (barriers released, threads and blocks finished) but did not finish in "
       "time: a slow run, not a hang. Nothing after the stop was checked.",
       "Give it more time (--timeout), check a sample of the blocks (--blocks sample:N), or make the shape smaller.",
       fields::stop},
      {rule::Deadlock, "run", Severity::Error, "Threads wait and none can proceed",
       "Every remaining thread waits at a barrier or a warp operation that the others never reach.",
       "Make every thread of the block reach the same barriers (no return before __syncthreads).", fields::stop},
      {rule::KernelCrash, "run", Severity::Error, "The executor's process crashed",
       "The kernel's process died: a wild access the checks did not cover, or a system call the sandbox refused.",
       "Read the message: it names the signal or the system call and the thread.", {}},
      {rule::RecordsOverwritten, "run", Severity::Error, "The kernel wrote into tile-doctor's records",
       "A store of the kernel reached the memory where the checks leave their records (an address computed from "
       "an integer, or an access the checks were off for): the records it changed are left out, and the launch's "
       "other findings may be incomplete. On a GPU such a store corrupts whatever lies there.",
       "Look for pointers made from integers or indices with no bound; run with --checks all so every access is "
       "checked.",
       {}},
      {rule::WildAccess, "run", Severity::Error, "An access outside all of the kernel's memory",
       "The kernel read, wrote or called through an address that is none of its buffers, its shared memory, its "
       "thread's own stack or local arrays, or its module's variables and functions (an address computed from an "
       "integer, an index with no bound, a null pointer, a pointer kept past its object). Reported whichever checks "
       "run. On a GPU it ends the launch with an illegal address where nothing is mapped, and silently changes "
       "or reads other memory where something is. tile-doctor skipped the access (a read returned 0) and ran on, "
       "so every such place is reported.",
       "See where the address comes from: the nearest buffer and how far past it the access went are in the "
       "message; run with --checks bounds for the buffer's coordinates.",
       fields::wild},
      {rule::LaunchRejected, "run", Severity::Error, "The GPU driver refused the launch",
       "cuLaunchKernel returned an error: the kernel never ran, so nothing of it was checked. Usually the compiled "
       "kernel asks for more than the device grants one launch (registers for this many threads, shared memory), "
       "or the launch's shape is invalid for the device.",
       "Read the driver's error in the message; fewer threads per block or less shared memory per block (or "
       "__launch_bounds__) usually fits it. The CPU executor still checks the kernel.",
       {}},
      {rule::DeviceAssert, "run", Severity::Error, "A device assert failed",
       "assert() in the kernel failed; the kernel stopped there.", "The message is the assertion.", fields::stop},
      {rule::DeviceTrap, "run", Severity::Error, "The kernel trapped", "__trap() ended the kernel.",
       "See where it trapped and why the kernel chose to.", fields::stop},
      {rule::NondeterministicOutput, "repeat", Severity::Error, "Outputs differ between runs",
       "--repeat ran the kernel again on the same inputs (on the CPU under other thread orders) and elements of "
       "an output changed: a race or a missing barrier.",
       "Look for the race the race family reports, or run with --checks race,sync.",
       {"buffer", "coordinates", "element"}},
  };
  return rules;
}

}  // namespace

std::vector<Rule> allRules() {
  std::vector<Rule> rules;
  for (const Family& f : families()) rules.insert(rules.end(), f.rules.begin(), f.rules.end());
  rules.insert(rules.end(), runRules().begin(), runRules().end());
  return rules;
}

const Rule* findRule(std::string_view id) {
  for (const Rule& r : runRules())
    if (id == r.id) return &r;
  for (const Family& f : families())
    for (const Rule& r : f.rules)
      if (id == r.id) return &r;
  return nullptr;
}

bool isRuleFamily(std::string_view family) {
  for (const Rule& r : allRules())
    if (family == r.family) return true;
  return false;
}

const char* severityName(Severity s) { return s == Severity::Error ? "error" : "warning"; }

}  // namespace td
