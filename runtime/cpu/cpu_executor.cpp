#include "runtime/cpu/cpu_executor.h"

#include "runtime/child_watch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <mutex>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>

#include "runtime/control_block.h"
#include "runtime/executor_limit.h"
#include "runtime/regions.h"
#include "runtime/shared_mapping.h"
#include <unistd.h>

#include "frontend/lifetime.h"
#include "instrument/shared_layout.h"
#include "runtime/bake.h"
#include "runtime/cpu/fault.h"
#include "runtime/cpu/host_abi.h"
#include "instrument/containment_pass.h"
#include "instrument/ptx_catalogue.h"
#include "runtime/cpu/jit.h"
#include "runtime/cpu/retarget.h"
#include "runtime/cpu/sandbox.h"
#include "runtime/cpu/simt.h"
#include "model/hooks.h"

namespace td::cpu {

namespace {

constexpr uint32_t kMaxWaiters = 4096;

enum ChildState : int {
  kRunning = 0, kDone = 1, kFault = 2, kDeadlock = 3, kTimeout = 4, kInternal = 5, kStopped = 6, kRefused = 7,
  kUnfinished = 8  // still progressing when --timeout ran out
};

// Written by the child, read by the parent: lives in a shared mapping.
struct SharedStatus {
  std::atomic<int> state;
  DecodedFault fault;
  int hasThread;
  ThreadRef faultThread;
  uint32_t lastSite;
  int refusedSyscall;  // kRefused: the system call the sandbox stopped
  std::atomic<uint64_t> blocksRun;
  double seconds;
  double idleSeconds;  // kUnfinished: since the last progress
  char message[512];
  uint32_t nwaiters;
  WaitInfo waiters[kMaxWaiters];
};


SharedStatus* gStatus = nullptr;
std::mutex gWorkersMutex;
std::vector<Worker*> gWorkers;

void recordWaiters(const std::vector<WaitInfo>& w) {
  uint32_t n = gStatus->nwaiters;
  for (const WaitInfo& x : w) {
    if (n >= kMaxWaiters) break;
    gStatus->waiters[n++] = x;
  }
  gStatus->nwaiters = n;
}

// The GPU thread the calling worker runs, if any, as the one a fault or a refused call came from.
void recordCurrentThread() {
  if (Worker* w = Worker::current(); w && w->currentThread.load() >= 0) {
    const ThreadCtx& c = w->self().ctx;
    std::memcpy(gStatus->faultThread.block, c.ctaid, sizeof c.ctaid);
    std::memcpy(gStatus->faultThread.thread, c.tid, sizeof c.tid);
    gStatus->lastSite = c.lastSite;
    gStatus->hasThread = 1;
  }
}

void faultSink(const DecodedFault& f) {
  gStatus->fault = f;
  recordCurrentThread();
  gStatus->state.store(kFault);
}

// A failed device assert or a __trap: the kernel ends, as on the GPU (the thread's record says which).
void kernelStopped() {
  int expected = kRunning;
  gStatus->state.compare_exchange_strong(expected, kStopped);
}

// The sandbox refused a system call: say which, with the thread that made it where one is known.
void syscallRefused(int number) {
  gStatus->refusedSyscall = number;
  recordCurrentThread();
  gStatus->state.store(kRefused);
}

// How long the least progressing worker has gone without releasing a barrier or finishing a thread or block,
// sampled now: one hung block among others that finish keeps its worker idle.
class ProgressWatch {
 public:
  // Call with gWorkersMutex held.
  double idleSeconds() {
    auto now = std::chrono::steady_clock::now();
    double idle = 0;
    for (const Worker* w : gWorkers) idle = std::max(idle, idleSeconds(w, now));
    return idle;
  }
  double idleSeconds(const Worker* w, std::chrono::steady_clock::time_point now) {
    uint64_t count = w->milestones.load(std::memory_order_relaxed);
    auto [it, fresh] = seen_.try_emplace(w, count, now);
    if (!fresh && it->second.first != count) it->second = {count, now};
    return std::chrono::duration<double>(now - it->second.second).count();
  }

 private:
  std::map<const Worker*, std::pair<uint64_t, std::chrono::steady_clock::time_point>> seen_;
};

[[noreturn]] void childMain(const LaunchShape& shape, KernelTrampoline fn, void** args, uint64_t blocks,
                            const std::vector<uint64_t>& chosen, int jobs, double timeout) {
  installFaultHandlers(faultSink);
  setKernelStopSink(kernelStopped);
  std::string why;
  if (!enterSandbox(syscallRefused, why)) {
    std::snprintf(gStatus->message, sizeof gStatus->message, "the executor's sandbox cannot be set up: %s", why.c_str());
    gStatus->state.store(kInternal);
    _exit(4);
  }
  auto t0 = std::chrono::steady_clock::now();
  std::thread watchdog([timeout, t0] {
    using Clock = std::chrono::steady_clock;
    auto deadline = t0 + std::chrono::duration<double>(timeout);
    // A run is hung when a worker's block made no progress (no barrier released, no thread or block
    // finished) in the last part of --timeout; one whose every worker still progresses is only slow.
    double window = std::min({std::max(timeout / 4, 1.0), 15.0, timeout / 2});
    ProgressWatch watch;
    for (int tick = 0; Clock::now() < deadline; ++tick) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (gStatus->state.load() != kRunning) return;
      if (tick % 20 == 0) {
        std::lock_guard<std::mutex> lock(gWorkersMutex);
        watch.idleSeconds();
      }
    }
    std::lock_guard<std::mutex> lock(gWorkersMutex);
    double idle = watch.idleSeconds();
    bool hung = idle >= window;
    int expected = kRunning;
    if (!gStatus->state.compare_exchange_strong(expected, hung ? kTimeout : kUnfinished)) return;
    gStatus->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    gStatus->idleSeconds = idle;
    // A hang is reported where it is: the blocks that stopped progressing, not those still finishing.
    auto now = Clock::now();
    for (Worker* w : gWorkers)
      if (!hung || watch.idleSeconds(w, now) >= window) recordWaiters(w->snapshot());
    _exit(3);
  });
  watchdog.detach();
  std::atomic<uint64_t> next{0};
  std::vector<std::thread> pool;
  for (int j = 0; j < jobs; ++j) {
    pool.emplace_back([&] {
      installAltStack();
      try {
        Worker w(shape, fn, args);
        {
          std::lock_guard<std::mutex> lock(gWorkersMutex);
          gWorkers.push_back(&w);
        }
        for (uint64_t i; (i = next.fetch_add(1)) < blocks;) {
          uint64_t b = chosen.empty() ? i : chosen[i];
          if (!w.runBlock(b)) {
            int expected = kRunning;
            if (gStatus->state.compare_exchange_strong(expected, kDeadlock)) {
              recordWaiters(w.deadlock);
              _exit(3);
            }
          }
          gStatus->blocksRun.fetch_add(1);
        }
        std::lock_guard<std::mutex> lock(gWorkersMutex);
        gWorkers.erase(std::find(gWorkers.begin(), gWorkers.end(), &w));
      } catch (const std::exception& e) {
        std::snprintf(gStatus->message, sizeof gStatus->message, "%s", e.what());
        gStatus->state.store(kInternal);
        _exit(4);
      }
    });
  }
  for (auto& t : pool) t.join();
  gStatus->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int expected = kRunning;
  gStatus->state.compare_exchange_strong(expected, kDone);
  _exit(0);
}

// Where a long run is, on the terminal: blocks done, the rate, the time left. Shown after two seconds, on
// standard error, and cleared when the run ends.
class ProgressLine {
 public:
  ProgressLine(bool on, std::string kernel, uint64_t blocks)
      : on_(on), kernel_(std::move(kernel)), blocks_(blocks), start_(std::chrono::steady_clock::now()) {}
  ~ProgressLine() {
    if (shown_) std::fprintf(stderr, "\r\033[K"), std::fflush(stderr);
  }
  void show(uint64_t done) {
    auto now = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(now - start_).count();
    if (!on_ || s < 2 || now - last_ < std::chrono::milliseconds(500)) return;
    last_ = now;
    double rate = done / s;
    std::string left = done ? fmt::format(", about {:.0f} s left", (blocks_ - done) / rate) : "";
    std::fprintf(stderr, "\r\033[K[tile-doctor] kernel %s: %llu of %llu blocks, %.2f blocks/s%s", kernel_.c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(blocks_), rate, left.c_str());
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  bool on_, shown_ = false;
  std::string kernel_;
  uint64_t blocks_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace

LaunchOutcome runOnCpu(KernelModule& km, const Bundle& bundle, std::vector<ArgValue>& args, int warpSize,
                       const LaunchOptions& opts) {
  // The kernel shares this process's child with the records: only a contained module runs (docs/security.md).
  if (!km.contained && !containmentOffForBenchmarks())
    throw std::logic_error("the CPU executor was given a module without containment");
  LaunchOutcome out;
  out.executor = "cpu";

  // The record channel and the per-site counters, shared with the child.
  uint32_t nsites = static_cast<uint32_t>(km.sites.sites.size());
  size_t channelBytes = sizeof(td_channel) + sizeof(td_record) * opts.channelCapacity;
  auto* channel = mapShared<td_channel>(channelBytes);
  ChannelSeal seal = sealChannel(channel, opts.channelCapacity, bundle.grid, bundle.block);
  size_t hitsBytes = sizeof(uint32_t) * (nsites * TD_KIND_COUNT + 1);
  auto* hits = mapShared<uint32_t>(hitsBytes);
  gStatus = mapShared<SharedStatus>(sizeof(SharedStatus));

  std::vector<void*> slots(args.size());
  std::vector<void*> pointers(args.size());
  std::vector<uint64_t> addresses(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].spec->isBuffer) {
      addresses[i] = reinterpret_cast<uint64_t>(args[i].data);
      pointers[i] = args[i].data;
      slots[i] = &pointers[i];
    } else {
      slots[i] = &args[i].scalar;
    }
  }

  // The families' regions. Block and thread scope live in each worker; this executor sees its waiting
  // threads itself, so hang-report regions stay absent. Grid-scope and per-buffer instances are mapped
  // here: zero pages mapped lazily, so only the touched parts of large buffers' regions cost memory;
  // grid-scope ones shared, for those read back after the launch.
  uint64_t window = layOutShared(km.sites).dynamicOffset + static_cast<uint64_t>(bundle.dynamicShared);
  if (window > UINT32_MAX)  // shared addresses are 32-bit on every GPU: a larger window would wrap, not grow
    throw ExecutorCannotRun(SourceLoc{bundle.manifestPath, static_cast<unsigned>(bundle.sharedLine)},
                            fmt::format("the block asks for {} bytes of shared memory, past the 4 GiB a 32-bit shared "
                                        "address reaches (a GPU gives a block at most a few hundred KiB)", window));
  uint32_t windowBytes = static_cast<uint32_t>(window);
  std::vector<td_region> regions = opts.regions;
  for (td_region& r : regions)
    if (r.flags & TD_REGION_HANG_READBACK) r = td_region{};
  sizeRegions(regions, windowBytes + 4, nsites);
  std::vector<std::pair<void*, size_t>> regionMaps;
  auto mapRegion = [&](size_t n, int sharing) {
    void* m = mmap(nullptr, std::max<size_t>(n, 1), PROT_READ | PROT_WRITE, sharing | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::runtime_error(fmt::format("cannot map {} bytes of the checks' device state", n));
    regionMaps.emplace_back(m, std::max<size_t>(n, 1));
    return m;
  };
  std::vector<BufferRegions> bufferRegions(args.size(), BufferRegions{});
  std::vector<RegionReadback> bufferReadbacks;  // instances that come back: region id, argument, bytes
  for (const BufferRegionNeed& need : bufferRegionNeeds(regions, args, nsites)) {
    bool back = buffersReadBack(regions[need.id]);
    bufferRegions[need.arg][need.slot] = reinterpret_cast<uint64_t>(mapRegion(need.bytes, back ? MAP_SHARED : MAP_PRIVATE));
    if (back) bufferReadbacks.push_back({need.id, std::vector<uint8_t>(need.bytes), static_cast<int>(need.arg)});
  }
  std::vector<td_region> bakedRegions = regions;  // the module sees sizes only: addresses differ per run
  for (td_region& r : regions)
    if (present(r) && r.scope == TD_SCOPE_GRID) r.base = reinterpret_cast<uint64_t>(mapRegion(r.bytes, MAP_SHARED));
  td_ctl ctl = makeControlBlock(args, addresses, nsites, static_cast<uint32_t>(bundle.dynamicShared),
                                reinterpret_cast<uint64_t>(channel), reinterpret_cast<uint64_t>(hits), bakedRegions,
                                bufferRegions);
  // The control block's addresses (this run's mappings) become symbols bound at link time, so the
  // compiled module is the same from run to run and its object code can be kept.
  ControlBlockAddresses runAddresses = controlBlockAddresses(ctl);
  bakeGlobal(*km.module, globalSymbol(OwnGlobal::ctl).c_str(), &ctl, sizeof ctl, runAddresses.fields);

  CpuJit jit;
  linkCpuLibdevice(*km.module);
  LaunchConstants lc;
  for (int d = 0; d < 3; ++d) {
    lc.grid[d] = static_cast<uint32_t>(bundle.grid[d]);
    lc.block[d] = static_cast<uint32_t>(bundle.block[d]);
  }
  lc.warpSize = static_cast<uint32_t>(warpSize);
  lc.sharedWindowBytes = windowBytes;
  for (size_t i = 0; i < regions.size() && i < TD_MAX_REGIONS; ++i)
    if (present(regions[i])) lc.regionsPresent |= 1u << i;
  RetargetResult rt = retargetToHost(*km.module, km.entrySymbol, jit.triple(), jit.dataLayout(), km.sites, lc);
  const llvm::GlobalVariable* objectTable = km.module->getNamedGlobal(globalSymbol(OwnGlobal::contain_objects));
  uint64_t nobjects = objectTable ? objectTable->getValueType()->getArrayNumElements() : 0;
  jit.add(std::move(km.module), std::move(km.ctx), runAddresses.values);
  auto fn = reinterpret_cast<KernelTrampoline>(jit.lookup(kTrampolineName));

  LaunchShape shape;
  for (int d = 0; d < 3; ++d) {
    shape.grid[d] = static_cast<uint32_t>(bundle.grid[d]);
    shape.block[d] = static_cast<uint32_t>(bundle.block[d]);
  }
  shape.warpSize = static_cast<uint32_t>(warpSize);
  shape.schedule = opts.schedule;
  shape.scheduleSeed = opts.scheduleSeed;
  shape.regions = regions;
  shape.asyncCopyLands = reinterpret_cast<decltype(shape.asyncCopyLands)>(jit.find(kAsyncCopyLanding));
  for (size_t i = 0; i < args.size() && i < TD_MAX_BUFFERS; ++i)
    if (ctl.buffers[i].bytes) shape.kernelMemory.emplace_back(reinterpret_cast<const char*>(ctl.buffers[i].base), ctl.buffers[i].bytes);
  if (auto* objects = static_cast<const td_object*>(nobjects ? jit.find(globalSymbol(OwnGlobal::contain_objects)) : nullptr))
    for (uint64_t i = 0; i < nobjects; ++i)
      shape.kernelMemory.emplace_back(static_cast<const char*>(objects[i].base), objects[i].bytes);
  uint64_t dynOffset = (rt.staticSharedBytes + 15) / 16 * 16;
  shape.sharedBytes = static_cast<uint32_t>(dynOffset + bundle.dynamicShared);
  uint64_t blocks = opts.blocks.empty() ? uint64_t(shape.grid[0]) * shape.grid[1] * shape.grid[2] : opts.blocks.size();
  int jobs = opts.jobs > 0 ? opts.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = static_cast<int>(std::min<uint64_t>(jobs, blocks));
  out.device = fmt::format("host CPU, {} worker thread{}", jobs, jobs == 1 ? "" : "s");

  setDevicePrintFd(opts.devicePrintFd);
  std::fflush(nullptr);
  pid_t pid = forkChildOfTool();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) childMain(shape, fn, slots.data(), blocks, opts.blocks, jobs, opts.timeoutSeconds);

  auto start = std::chrono::steady_clock::now();
  double hardLimit = opts.timeoutSeconds + 10;  // the child's own watchdog reports first
  ProgressLine progress(opts.showProgress, bundle.entry, blocks);
  ChildEnd end = watchChild(pid, std::chrono::microseconds(500), [&] {
    progress.show(gStatus->blocksRun.load(std::memory_order_relaxed));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > hardLimit;
  });
  if (end.killed) gStatus->state.store(kTimeout);
  int wstatus = end.status;
  readRecords(out, channel, seal, hits, nsites);
  out.blocksRun = gStatus->blocksRun.load();
  out.blocksToRun = blocks;
  out.seconds = gStatus->seconds;
  auto waiters = [&](LaunchOutcome& o) {
    // Shared with the child, so the kernel could have written it: a count past the array is not trusted.
    for (uint32_t i = 0, n = std::min<uint32_t>(gStatus->nwaiters, kMaxWaiters); i < n; ++i) {
      const WaitInfo& w = gStatus->waiters[i];
      Waiter x;
      std::memcpy(x.thread.block, w.block, sizeof w.block);
      std::memcpy(x.thread.thread, w.thread, sizeof w.thread);
      x.site = w.site;
      x.barrierId = w.barrierId;
      x.expected = w.expected;
      x.arrived = w.arrived;
      x.arriveSite = w.arriveSite;
      x.state = w.state == static_cast<uint8_t>(ThreadState::AtBarrier) ? Waiter::AtBarrier
                : w.state == static_cast<uint8_t>(ThreadState::AtWarpOp) ? Waiter::AtWarpOp
                : w.state == kWaitRunning ? Waiter::Running : Waiter::Runnable;
      o.waiters.push_back(x);
    }
  };
  switch (gStatus->state.load()) {
    case kDone: out.status = LaunchOutcome::Completed; break;
    case kFault: {
      out.status = LaunchOutcome::Faulted;
      const DecodedFault& f = gStatus->fault;
      out.fault.signal = f.signal;
      out.fault.address = f.address;
      out.fault.pc = f.pc;
      out.fault.instruction = f.instruction;
      out.fault.access = f.access;
      out.fault.width = f.width;
      out.fault.hasThread = gStatus->hasThread != 0;
      out.fault.thread = gStatus->faultThread;
      out.fault.lastSite = gStatus->lastSite;
      break;
    }
    case kStopped: out.status = LaunchOutcome::Stopped; break;
    case kRefused:
      out.status = LaunchOutcome::Crashed;
      out.message = fmt::format("the kernel made a system call ({}){}; the CPU executor's sandbox refused it and "
                                "stopped the run: a checked kernel may only compute on its buffers",
                                syscallName(gStatus->refusedSyscall),
                                gStatus->hasThread ? fmt::format(" in thread ({},{},{}) of block ({},{},{})",
                                                                 gStatus->faultThread.thread[0], gStatus->faultThread.thread[1],
                                                                 gStatus->faultThread.thread[2], gStatus->faultThread.block[0],
                                                                 gStatus->faultThread.block[1], gStatus->faultThread.block[2])
                                                   : std::string());
      break;
    case kDeadlock: out.status = LaunchOutcome::Deadlocked; waiters(out); break;
    case kTimeout: out.status = LaunchOutcome::TimedOut; waiters(out); break;
    case kUnfinished:
      out.status = LaunchOutcome::Unfinished;
      out.idleSeconds = gStatus->idleSeconds;
      waiters(out);
      break;
    case kInternal:
      out.status = LaunchOutcome::Crashed;
      out.message = std::string(gStatus->message, strnlen(gStatus->message, sizeof gStatus->message));
      break;
    default:
      out.status = LaunchOutcome::Crashed;
      out.message = WIFSIGNALED(wstatus) ? fmt::format("the kernel process was killed by signal {} ({})",
                                                       WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)))
                                         : fmt::format("the kernel process exited with status {}", WEXITSTATUS(wstatus));
  }
  for (const td_region& r : regions)
    if (readBackAfterLaunch(r)) {
      const auto* p = reinterpret_cast<const uint8_t*>(r.base);
      out.readbacks.push_back({static_cast<unsigned>(&r - regions.data()), std::vector<uint8_t>(p, p + r.bytes)});
    }
  for (RegionReadback& back : bufferReadbacks) {
    const auto* p = reinterpret_cast<const uint8_t*>(bufferRegions[back.arg][regions[back.id].slot]);
    std::copy(p, p + back.bytes.size(), back.bytes.begin());
    out.readbacks.push_back(std::move(back));
  }
  munmap(channel, channelBytes);
  munmap(hits, hitsBytes);
  for (auto [m, n] : regionMaps) munmap(m, n);
  munmap(gStatus, sizeof(SharedStatus));
  gStatus = nullptr;
  return out;
}

}  // namespace td::cpu
