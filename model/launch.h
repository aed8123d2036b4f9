// What an executor reports back from one checked launch: the hook records, per-site hit counts and how
// the run ended. Executor-neutral; the collector turns it into findings.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/timed_launches.h"
#include "model/abi.h"

namespace td {

struct ThreadRef {
  uint32_t block[3] = {0, 0, 0}, thread[3] = {0, 0, 0};
};

struct FaultInfo {
  int signal = 0;
  uint64_t address = 0;        // the faulting data address
  uint64_t pc = 0;
  std::string instruction;     // decoded host instruction
  std::string access;          // "read", "write" or "" when unknown
  unsigned width = 0;
  ThreadRef thread;
  bool hasThread = false;
  uint32_t lastSite = ~0u;
  std::string gpuError;        // CUDA executor: the CUDA error name (the GPU gives no thread or address)
};

struct Waiter {
  ThreadRef thread;
  uint32_t site = ~0u;         // barrier / warp-op site, or last site of a running thread
  // Running: on the CPU when stopped; Runnable: not started or between barriers, waiting its turn.
  enum State { Running, Runnable, AtBarrier, AtWarpOp } state = Running;
  // At a barrier: its id, the threads it waits for (0: every live thread), those arrived, and where the
  // last thread that arrived without waiting (bar.arrive) did so (~0u: none).
  uint32_t barrierId = 0, expected = 0, arrived = 0, arriveSite = ~0u;
};

// A region's bytes copied back to the host (TD_REGION_READ_BACK after the launch; TD_REGION_HANG_READBACK
// when it was stopped for time), for the family that asked for it to read.
struct RegionReadback {
  unsigned id = 0;
  std::vector<uint8_t> bytes;
  int arg = -1;  // a per-buffer region: the argument whose instance this is
};

struct LaunchOutcome {
  // Stopped: a thread failed a device assert or reached __trap, and the kernel ended (its record says which).
  // Rejected: the driver refused the launch (message: its error); the kernel never ran.
  // TimedOut: no progress in the last part of --timeout (a hang); Unfinished: still progressing when
  // --timeout ran out (slow, not hung: the CPU executor tells them apart).
  enum Status { Completed, Faulted, TimedOut, Deadlocked, Crashed, Stopped, Rejected, Unfinished } status = Completed;
  std::vector<td_record> records;
  uint64_t recordsDropped = 0;
  // The kernel's stores reached the record channel: its header changed (overwritten), or records named
  // kinds, sites, blocks or threads that cannot be (corrupt, left out).
  bool channelOverwritten = false;
  uint64_t recordsCorrupt = 0;
  std::vector<uint32_t> hits;  // nsites * TD_KIND_COUNT
  FaultInfo fault;
  std::vector<Waiter> waiters;
  std::vector<RegionReadback> readbacks;
  uint64_t blocksRun = 0;
  uint64_t blocksToRun = 0;    // the blocks this launch was to run (all, or the --blocks sample)
  std::string message;         // for Crashed: what happened
  double seconds = 0;          // kernel execution time (the child's run; until it was stopped, for Unfinished)
  double idleSeconds = 0;      // Unfinished: how long before the stop the last barrier, thread or block finished
  TimedLaunches timing;        // the timing launches one by one, and the clocks meanwhile
  std::string executor, device;
};

// The order the CPU executor runs a block's ready threads in, each round until they all wait or end.
// Forward: thread 0 first; reverse: the last first; random: a fresh seeded shuffle every round.
enum class Schedule { Forward, Reverse, Random };

struct LaunchOptions {
  int jobs = 0;                // worker threads (0: all cores)
  double timeoutSeconds = 60;
  uint32_t channelCapacity = 4096;
  int device = 0;              // CUDA device ordinal
  int timingLaunches = 0;      // CUDA executor: extra launches after the checked one, timed with events
  double timingSeconds = 0;    // and more of them until this long has passed (timing stability)
  bool timed() const { return timingLaunches > 0 || timingSeconds > 0; }
  Schedule schedule = Schedule::Forward;  // CPU executor
  // The device state the enabled check families need (model/family.h: regionTable), TD_MAX_REGIONS
  // entries or none; the executor allocates each present one and fills in where it put it.
  std::vector<td_region> regions;
  uint64_t scheduleSeed = 0;
  int devicePrintFd = 1;         // where device printf writes (both executors; 2 when the report takes stdout)
  std::vector<uint64_t> blocks;  // CPU executor: linear indices of the blocks to run; empty: all
  bool showProgress = false;     // CPU executor: a progress line on standard error (a terminal) for long runs
};

}  // namespace td
