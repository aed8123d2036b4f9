// SIMT execution of one block on the CPU: one fiber per GPU thread (Boost.Context), a block runs on one
// worker thread. __syncthreads and named barriers are rendezvous of the block, warp collectives
// rendezvous of the warp; the last lane to arrive computes every lane's result. Threads that exit stop
// counting, as on the GPU; when no thread can run and some still wait, the block is deadlocked.
#pragma once
#include <array>
#include <atomic>
#include <boost/context/fiber.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/cpu/thread_ctx.h"
#include "model/launch.h"
#include "model/abi.h"

namespace td::cpu {

using KernelTrampoline = void (*)(void** args);

struct LaunchShape {
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  uint32_t warpSize = 32;
  uint32_t sharedBytes = 0;  // static + dynamic
  Schedule schedule = Schedule::Forward;
  uint64_t scheduleSeed = 0;
  // The check families' regions, sized (abi.h); a grid-scope one's base is the launch's instance. Absent
  // and per-buffer ones are not the worker's.
  std::vector<td_region> regions;
  // The module's kAsyncCopyLanding (dst, first 8 bytes, next 8, size), or nullptr: copies land by memcpy.
  void (*asyncCopyLands)(void*, uint64_t, uint64_t, uint32_t) = nullptr;
  // The kernel's memory besides its stack and shared window: its buffers and its module's variables
  // (containment's table), where the executor itself may read for it (device printf's strings).
  std::vector<std::pair<const char*, uint64_t>> kernelMemory;
};

enum class ThreadState : uint8_t { Ready, AtBarrier, AtWarpOp, Done };

struct PendingCopy {  // a cp.async in flight: lands at the thread's wait_group / wait_all
  uint32_t group;
  uint32_t size;
  char* dst;
  unsigned char data[16];
};

struct SimThread {
  ThreadCtx ctx;
  ThreadState state = ThreadState::Ready;
  boost::context::fiber fiber;
  uint32_t waitSite = ~0u;     // barrier or warp-op site while waiting
  uint32_t barrierId = 0;
  // warp collective operands and result
  int op = 0, mode = 0;
  uint32_t mask = 0, a = 0, b = 0, c = 0, result = 0;
  // warp-collective inline PTX (ldmatrix, mma.sync): operand and result slots on the lane's stack
  const uint64_t* asmIn = nullptr;
  uint64_t* asmOut = nullptr;
  uint32_t asmOp = 0, asmParam = 0;
  // cp.async state
  std::vector<PendingCopy> pending;
  uint32_t openGroup = 0;
};

constexpr uint8_t kWaitRunning = 4;  // WaitInfo::state of the thread on the CPU when the snapshot was taken

// Snapshot of a blocked or running thread, for hang reports (lives in memory shared with the parent).
struct WaitInfo {
  uint32_t block[3], thread[3];
  uint32_t site;   // ~0u: running (not waiting)
  uint8_t state;
  uint32_t barrierId, expected, arrived, arriveSite;  // at a barrier: as in Waiter (model/launch.h)
};

class Worker;
struct SimThread;
// Computes a warp-collective inline-PTX statement for every lane (nullptr: lane not taking part).
void runWarpPtx(const std::vector<SimThread*>& lanes);

// Runs the blocks handed to it; one per OS thread.
class Worker {
 public:
  Worker(const LaunchShape& shape, KernelTrampoline fn, void** args);
  ~Worker();
  // Runs block `linear`; returns false when it deadlocked (then `deadlock` describes the waiters).
  bool runBlock(uint64_t linear);
  std::vector<WaitInfo> snapshot() const;  // current block's threads (read unsynchronised, for hang reports)
  static Worker* current();
  SimThread& self() { return threads_[current_]; }
  const LaunchShape& shape() const { return shape_; }

  // Entry points the retargeted kernel calls (through the extern "C" shims in host_abi.cpp).
  void barrier(uint32_t site, uint32_t id, uint32_t count);
  void spinYield(uint32_t site);  // let the block's other threads run, as a polling loop does on the GPU
  void barrierArrive(uint32_t site, uint32_t id, uint32_t count);  // bar.arrive: counts, does not wait
  uint32_t barrierReduce(uint32_t site, int op, uint32_t value);
  uint32_t warpCollective(uint32_t site, int op, int mode, uint32_t mask, uint32_t a, uint32_t b, uint32_t c);
  // An inline-PTX statement of the catalogue (ptx_semantics.cpp); warp-collective ones rendezvous.
  void inlinePtx(uint32_t site, uint32_t op, uint32_t param, const uint64_t* in, uint64_t* out);
  uint32_t inlinePtxCollective(uint32_t site, uint32_t op, uint32_t param, const uint64_t* in, uint64_t* out);

  std::vector<WaitInfo> deadlock;
  std::atomic<int> currentThread{-1};
  // Barriers released, threads and blocks finished so far: what tells a slow block from a hung one (a loop
  // that never ends does none of these). Written by this worker only, read by the watchdog.
  std::atomic<uint64_t> milestones{0};
  uint64_t currentBlock = 0;

 private:
  void yieldToScheduler();
  void releaseBarrier(uint32_t id);
  void tryCompleteBarriers();
  void tryCompleteWarp(uint32_t warp, uint64_t lanes);
  void completeWarp(uint32_t warp, uint64_t lanes);
  uint64_t laneMask(uint32_t mask) const;  // a collective's mask as lanes of this warp size

  LaunchShape shape_;
  KernelTrampoline fn_;
  void** args_;
  uint32_t nthreads_;
  std::vector<SimThread> threads_;
  std::vector<uint32_t> order_;  // the schedule: which thread a round resumes first
  size_t pos_ = 0;               // the round's next place in order_ (the scheduler's and the threads' own)
  std::vector<char> shared_;
  char* stacks_ = nullptr;
  size_t stackBytes_ = 0, stackStride_ = 0;
  boost::context::fiber scheduler_;
  int current_ = 0;
  uint32_t live_ = 0;
  static constexpr int kBarriers = 16;
  std::array<uint32_t, kBarriers> barrierArrived_{}, barrierExpected_{};
  std::array<uint32_t, kBarriers> arriveSite_{};  // per barrier id: where a thread last arrived without waiting
  uint32_t nwarps_ = 0;
  std::vector<uint64_t> warpLive_, warpArrived_;  // lane bit masks per warp
  std::vector<char> regionStore_;       // the running block's and its threads' region instances
  std::vector<uint64_t> regionOffset_;  // per region: where its instances start in the store
  void layOutRegions();
  void placeRegions(ThreadCtx& c, uint32_t thread);
};

}  // namespace td::cpu
