#include "runtime/cuda/cuda_executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>

#include "runtime/control_block.h"
#include "runtime/shared_mapping.h"
#include <unistd.h>

#include "frontend/lifetime.h"
#include "instrument/shared_layout.h"
#include "runtime/bake.h"
#include "runtime/cuda/driver.h"
#include "runtime/cuda/tensor_maps.h"
#include "runtime/cuda/ptx.h"
#include "runtime/cuda/wait_board.h"

namespace td::cuda {

namespace {

enum ChildState : int { kSetup = 0, kLaunched = 1, kDone = 2, kKernelError = 3, kSetupError = 4 };

// Written by the child, read by the parent.
struct SharedStatus {
  std::atomic<int> state;
  std::atomic<int> boardDump;  // hang reports: 1 the parent asks for the wait board, 2 copied, 3 failed
  char boardNote[128];         // why the copy failed
  double seconds;
  double kernelMsMedian;
  char device[160];
  char records[160];   // how records reach the host
  char error[96];      // CUDA error name
  char message[1024];  // what failed
};


struct KernelError : std::runtime_error {
  KernelError(std::string name, const std::string& what) : std::runtime_error(what), name(std::move(name)) {}
  std::string name;
};

void copyText(char* dst, size_t n, const std::string& s) { std::snprintf(dst, n, "%s", s.c_str()); }

// Where the GPU writes records. Normally the shared mapping itself, registered with the driver; where
// the driver cannot register it (seen in sandboxes), pinned memory of the child, copied to the shared
// mapping whenever the child ends (records of a child killed for a hang are then lost).
struct RecordMemory {
  void* channel = nullptr;
  void* hits = nullptr;
  void* sharedChannel = nullptr;
  void* sharedHits = nullptr;
  size_t channelBytes = 0, hitsBytes = 0;
  bool mirrored = false;
  void flush() const {
    if (!mirrored) return;
    std::memcpy(sharedChannel, channel, channelBytes);
    std::memcpy(sharedHits, hits, hitsBytes);
  }
};
RecordMemory gRecords;

CUresult launchOnce(const Driver& d, CUfunction fn, const Bundle& b, uint32_t dynamicShared, std::vector<void*>& params) {
  return d.cuLaunchKernel(fn, static_cast<unsigned>(b.grid[0]), static_cast<unsigned>(b.grid[1]),
                          static_cast<unsigned>(b.grid[2]), static_cast<unsigned>(b.block[0]),
                          static_cast<unsigned>(b.block[1]), static_cast<unsigned>(b.block[2]), dynamicShared,
                          nullptr, params.data(), nullptr);
}

// Median kernel time over `n` more launches, CUDA events around each. The checked launch's records and
// counts are restored afterwards, so the report describes that one launch only.
double timeLaunches(const Driver& d, CUfunction fn, const Bundle& b, uint32_t dynamicShared, std::vector<void*>& params, int n,
                    td_channel* channel, uint32_t* hits, size_t hitsBytes, const std::function<void()>& beforeEach) {
  std::vector<uint32_t> savedHits(hits, hits + hitsBytes / sizeof(uint32_t));
  uint32_t savedCursor = channel->cursor;
  CUevent start, stop;
  check(d, d.cuEventCreate(&start, 0), "cuEventCreate");
  check(d, d.cuEventCreate(&stop, 0), "cuEventCreate");
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    beforeEach();
    d.cuEventRecord(start, nullptr);
    check(d, launchOnce(d, fn, b, dynamicShared, params), "cuLaunchKernel");
    d.cuEventRecord(stop, nullptr);
    check(d, d.cuEventSynchronize(stop), "cuEventSynchronize");
    float t = 0;
    d.cuEventElapsedTime(&t, start, stop);
    ms.push_back(t);
  }
  std::copy(savedHits.begin(), savedHits.end(), hits);
  channel->cursor = savedCursor;
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// The race checks' state on the GPU (td_ctl): a shadow per buffer; per block of the grid a shared
// shadow, its barrier slots, a sync count and two counters per thread, in the block's own shared memory
// where they fit (the tail), else in global memory. All zero at launch.
struct RaceState {
  std::vector<uint64_t> buffers;
  CUdeviceptr shared = 0, epochs = 0, blockSync = 0, blockChecks = 0;
  uint32_t granulesPerBlock = 0;
  uint32_t tailBytes = 0;  // of shared memory per block, after the kernel's dynamic array
  CUdeviceptr waitBoard = 0;  // hang reports (wait_board.h), 0 without the barrier hooks or for grids too large
  size_t waitBoardBytes = 0;
  std::vector<std::pair<CUdeviceptr, size_t>> allocations;
  void zero(const Driver& d) const {  // for another launch (the timing runs start from a fresh state too)
    for (auto [p, n] : allocations) check(d, d.cuMemsetD8(p, 0, n), "cuMemsetD8 (race shadow)");
  }
  uint32_t dynamicShared(const Bundle& b) const {  // the launch's dynamic shared bytes
    auto dynamic = static_cast<uint32_t>(b.dynamicShared);
    return tailBytes ? TD_SHARED_TAIL_OFFSET(dynamic) + tailBytes : dynamic;
  }
};
constexpr uint64_t kRaceStateLimit = 32ull << 30;  // of the GPU's memory, for all of it together

CUdeviceptr zeroedAlloc(const Driver& d, size_t bytes, RaceState& rs) {
  CUdeviceptr p = 0;
  check(d, d.cuMemAlloc(&p, bytes), "cuMemAlloc (race shadow)");
  check(d, d.cuMemsetD8(p, 0, bytes), "cuMemsetD8 (race shadow)");
  rs.allocations.emplace_back(p, bytes);
  return p;
}

RaceState allocateRaceState(const Driver& d, const KernelModule& km, const Bundle& b, const std::vector<ArgValue>& args,
                            uint64_t sharedPerBlockLimit, bool waitBoard) {
  RaceState rs;
  uint64_t blocks = static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2]);
  uint64_t threads = static_cast<uint64_t>(b.block[0] * b.block[1] * b.block[2]);
  // The kernel's window (its static arrays as laid out here, then the dynamic array), with 1 KiB of slack
  // for the assembler's padding; the runtime skips anything past the shadow.
  uint64_t kernelShared = layOutShared(km.sites).dynamicOffset + static_cast<uint64_t>(b.dynamicShared);
  rs.granulesPerBlock = static_cast<uint32_t>((kernelShared + 1024 + 3) / 4);
  uint64_t tail = TD_TAIL_BYTES(threads, uint64_t{rs.granulesPerBlock});
  if (kernelShared + 1024 + TD_SHARED_TAIL_ALIGN + tail <= sharedPerBlockLimit) rs.tailBytes = static_cast<uint32_t>(tail);
  uint64_t perBlockInGlobal = uint64_t{rs.granulesPerBlock} * sizeof(td_granule) + 4 + sizeof(td_block_checks);
  uint64_t total = rs.tailBytes ? 0 : blocks * (threads * 8 + perBlockInGlobal);
  total += waitBoard ? blocks * threads * 4 : 0;
  for (const ArgValue& a : args) total += a.spec->isBuffer ? shadowBytesFor(a.bytes) : 0;
  if (total > kRaceStateLimit)
    throw std::runtime_error(fmt::format("the race and init checks need {:.1f} GiB of GPU memory for this launch "
                                         "(limit {} GiB): run them on the CPU executor, or leave them out with --checks",
                                         total / double(1ull << 30), kRaceStateLimit >> 30));
  rs.buffers.assign(args.size(), 0);
  if (waitBoard) rs.waitBoard = zeroedAlloc(d, rs.waitBoardBytes = blocks * threads * 4, rs);
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].spec->isBuffer && args[i].bytes) rs.buffers[i] = zeroedAlloc(d, shadowBytesFor(args[i].bytes), rs);
  if (rs.tailBytes) return rs;
  rs.epochs = zeroedAlloc(d, blocks * threads * 8, rs);
  rs.shared = zeroedAlloc(d, blocks * rs.granulesPerBlock * sizeof(td_granule), rs);
  rs.blockSync = zeroedAlloc(d, blocks * 4, rs);
  rs.blockChecks = zeroedAlloc(d, blocks * sizeof(td_block_checks), rs);
  return rs;
}

// Hang reports: when the parent asks (the launch ran past its timeout), copies the wait board out on a
// stream of its own, which does not wait for the hung kernel, into the mapping the parent reads.
void copyBoardWhenAsked(const Driver& d, CUcontext ctx, CUdeviceptr board, uint32_t* host, size_t hostBytes,
                        size_t bytes, SharedStatus* st) {
  d.cuMemHostRegister(host, hostBytes, kHostRegisterPortable);  // pinned: the copy need not stage (best effort)
  std::thread([&d, ctx, board, host, bytes, st] {
    while (st->boardDump.load() != 1) {
      if (st->state.load() != kLaunched) return;  // finished: nobody will ask
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CUstream stream = nullptr;
    const char* step = "cuCtxSetCurrent";
    CUresult r = d.cuCtxSetCurrent(ctx);
    if (r == 0) r = d.cuStreamCreate(&stream, kStreamNonBlocking), step = "cuStreamCreate";
    if (r == 0) r = d.cuMemcpyDtoHAsync(host, board, bytes, stream), step = "cuMemcpyDtoHAsync";
    if (r == 0) r = d.cuStreamSynchronize(stream), step = "cuStreamSynchronize";
    if (r != 0) copyText(st->boardNote, sizeof st->boardNote, fmt::format("{}: {}", step, d.errorName(r)));
    st->boardDump.store(r == 0 ? 2 : 3);
  }).detach();
}

[[noreturn]] void childMain(KernelModule& km, const Bundle& b, std::vector<ArgValue>& args, const LaunchOptions& opts,
                            td_channel* channel, size_t channelBytes, uint32_t* hits, size_t hitsBytes,
                            SharedStatus* st, uint32_t* boardHost, size_t boardBytes) {
  if (opts.devicePrintFd != 1) ::dup2(opts.devicePrintFd, 1);  // the driver prints device printf to stdout
  Driver d{};
  try {
    std::string why;
    if (!d.open(why)) throw std::runtime_error(why);
    check(d, d.cuInit(0), "cuInit");
    CUdevice dev;
    check(d, d.cuDeviceGet(&dev, opts.device), "cuDeviceGet");
    char name[128] = {0};
    d.cuDeviceGetName(name, sizeof name, dev);
    int major = 0, minor = 0, version = 0;
    d.cuDeviceGetAttribute(&major, kAttrComputeMajor, dev);
    d.cuDeviceGetAttribute(&minor, kAttrComputeMinor, dev);
    d.cuDriverGetVersion(&version);
    std::string arch = fmt::format("sm_{}{}", major, minor);
    copyText(st->device, sizeof st->device, fmt::format("{} ({}, device {}, CUDA driver {}.{})", name, arch, opts.device,
                                                        version / 1000, version % 1000 / 10));
    CUcontext ctx;
    check(d, d.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(d, d.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");

    // Records and counters live in host memory shared with the parent, mapped into the GPU.
    gRecords = {channel, hits, channel, hits, channelBytes, hitsBytes, false};
    unsigned flags = kHostRegisterDeviceMap | kHostRegisterPortable;
    CUresult reg = d.cuMemHostRegister(channel, channelBytes, flags);
    if (reg == 0) reg = d.cuMemHostRegister(hits, hitsBytes, flags);
    std::string how = "records in host memory shared with tile-doctor";
    if (reg != 0) {
      check(d, d.cuMemHostAlloc(&gRecords.channel, channelBytes, kHostAllocDeviceMap), "cuMemHostAlloc");
      check(d, d.cuMemHostAlloc(&gRecords.hits, hitsBytes, kHostAllocDeviceMap), "cuMemHostAlloc");
      std::memcpy(gRecords.channel, channel, channelBytes);
      std::memcpy(gRecords.hits, hits, hitsBytes);
      gRecords.mirrored = true;
      how = fmt::format("records in pinned memory copied out at exit (cuMemHostRegister: {})", d.errorName(reg));
    }
    // With unified addressing the device sees mapped host memory at the host address; that is the
    // fallback when the driver will not translate it.
    auto devicePointer = [&](void* host) {
      CUdeviceptr p = 0;
      return d.cuMemHostGetDevicePointer(&p, host, 0) == 0 ? p : reinterpret_cast<CUdeviceptr>(host);
    };
    CUdeviceptr channelDev = devicePointer(gRecords.channel), hitsDev = devicePointer(gRecords.hits);
    copyText(st->records, sizeof st->records, how);

    std::vector<CUdeviceptr> devPtrs(args.size(), 0);
    std::vector<void*> params(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].spec->isBuffer) {
        check(d, d.cuMemAlloc(&devPtrs[i], args[i].bytes), "cuMemAlloc");
        check(d, d.cuMemcpyHtoD(devPtrs[i], args[i].data, args[i].bytes), "cuMemcpyHtoD");
        params[i] = &devPtrs[i];
      } else {
        params[i] = &args[i].scalar;
      }
    }
    std::vector<TensorMapBytes> tensorMaps;
    encodeTensorMaps(d, args, devPtrs, tensorMaps, params);
    int sharedOptin = 48 * 1024;
    d.cuDeviceGetAttribute(&sharedOptin, kAttrMaxSharedPerBlockOptin, dev);
    RaceState race = opts.raceShadows
                         ? allocateRaceState(d, km, b, args, static_cast<uint64_t>(sharedOptin), boardHost != nullptr)
                         : RaceState{};
    const uint32_t dynamicShared = race.dynamicShared(b);
    // The control block is baked into the module as on the CPU: the checks read immediates.
    td_ctl ctl = makeControlBlock(args, std::vector<uint64_t>(devPtrs.begin(), devPtrs.end()),
                                  static_cast<uint32_t>(km.sites.sites.size()),
                                  static_cast<uint32_t>(b.dynamicShared), channelDev, hitsDev, race.buffers);
    ctl.race_shadow = race.shared;
    ctl.thread_epochs = race.epochs;
    ctl.block_sync = race.blockSync;
    ctl.block_checks = race.blockChecks;
    ctl.shadow_granules = race.granulesPerBlock;
    ctl.shared_tail_bytes = race.tailBytes;
    ctl.wait_board = race.waitBoard;
    bakeGlobal(*km.module, "__td_ctl", &ctl, sizeof ctl);
    bakeArguments(*km.module, km.entrySymbol, std::vector<const void*>(params.begin(), params.end()));
    // A source written for the device's architecture-specific features (sm_90a: wgmma, setmaxnreg) keeps them.
    std::string ptxArch = b.arch == arch + "a" ? b.arch : arch;
    std::string ptx = generatePtx(*km.module, ptxArch, b.grid.data(), b.block.data());

    char log[8192] = {0};
    int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
    void* values[] = {log, reinterpret_cast<void*>(sizeof log)};
    CUmodule mod;
    CUresult r = d.cuModuleLoadDataEx(&mod, ptx.c_str(), 2, options, values);
    if (r != 0) throw std::runtime_error(fmt::format("loading the PTX failed: {}\n{}", d.errorName(r), log));
    CUfunction fn;
    check(d, d.cuModuleGetFunction(&fn, mod, km.entrySymbol.c_str()), "cuModuleGetFunction");
    // Above 48 KiB of static and dynamic shared memory together a launch must opt in, as a user's launcher
    // does (TileLang's 48 KiB of dynamic shared memory plus its 48 bytes of static mbarriers is over).
    int staticShared = 0;
    check(d, d.cuFuncGetAttribute(&staticShared, kFuncSharedSizeBytes, fn), "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
    if (static_cast<uint64_t>(staticShared) + dynamicShared > 48 * 1024)
      check(d, d.cuFuncSetAttribute(fn, kFuncMaxDynamicSharedBytes, static_cast<int>(dynamicShared)),
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");

    st->state.store(kLaunched);
    auto t0 = std::chrono::steady_clock::now();
    r = launchOnce(d, fn, b, dynamicShared, params);
    if (r != 0) throw KernelError(d.errorName(r), "cuLaunchKernel: " + d.errorString(r));
    if (ctl.wait_board) copyBoardWhenAsked(d, ctx, race.waitBoard, boardHost, boardBytes, race.waitBoardBytes, st);
    r = d.cuCtxSynchronize();
    st->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r != 0) throw KernelError(d.errorName(r), d.errorString(r));
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].spec->isBuffer) check(d, d.cuMemcpyDtoH(args[i].data, devPtrs[i], args[i].bytes), "cuMemcpyDtoH");
    if (opts.timingLaunches > 0)
      st->kernelMsMedian = timeLaunches(d, fn, b, dynamicShared, params, opts.timingLaunches, static_cast<td_channel*>(gRecords.channel),
                                        static_cast<uint32_t*>(gRecords.hits), hitsBytes,
                                        [&] { race.zero(d); });
    gRecords.flush();
    st->state.store(kDone);
    _exit(0);
  } catch (const KernelError& e) {
    gRecords.flush();
    copyText(st->error, sizeof st->error, e.name);
    copyText(st->message, sizeof st->message, e.what());
    st->state.store(kKernelError);
    _exit(3);
  } catch (const std::exception& e) {
    gRecords.flush();
    copyText(st->message, sizeof st->message, e.what());
    st->state.store(kSetupError);
    _exit(4);
  }
}

}  // namespace

bool gpuAvailable(int device, std::string& why) {
  auto* msg = mapShared<char>(512);
  std::fflush(nullptr);
  pid_t pid = forkChildOfTool();
  if (pid == 0) {
    Driver d{};
    std::string w;
    int count = 0;
    if (!d.open(w)) {
      copyText(msg, 512, w);
      _exit(1);
    }
    CUresult r = d.cuInit(0);
    if (r != 0 || d.cuDeviceGetCount(&count) != 0 || count <= device) {
      copyText(msg, 512, r != 0 ? "cuInit: " + d.errorName(r) : fmt::format("no CUDA device {} ({} found)", device, count));
      _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  releaseChild(pid);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  why = msg;
  munmap(msg, 512);
  return ok;
}

LaunchOutcome runOnCuda(KernelModule& km, const Bundle& b, std::vector<ArgValue>& args, const LaunchOptions& opts) {
  LaunchOutcome out;
  out.executor = "cuda";
  uint32_t nsites = static_cast<uint32_t>(km.sites.sites.size());
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto roundUp = [&](size_t n) { return (n + page - 1) / page * page; };  // host registration works on pages
  size_t channelBytes = roundUp(sizeof(td_channel) + sizeof(td_record) * opts.channelCapacity);
  size_t hitsBytes = roundUp(sizeof(uint32_t) * (nsites * TD_KIND_COUNT + 1));
  auto* channel = mapShared<td_channel>(channelBytes);
  channel->capacity = opts.channelCapacity;
  auto* hits = mapShared<uint32_t>(hitsBytes);
  auto* st = mapShared<SharedStatus>(sizeof(SharedStatus));
  uint64_t gridThreads = static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2] * b.block[0] * b.block[1] * b.block[2]);
  // Who waits where in a hang: the barrier hooks' wait board, read back through this mapping.
  size_t boardBytes = opts.barrierHooks && gridThreads <= kWaitBoardThreads ? roundUp(gridThreads * 4) : 0;
  auto* boardHost = boardBytes ? mapShared<uint32_t>(boardBytes) : nullptr;

  std::fflush(nullptr);
  pid_t pid = forkChildOfTool();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) childMain(km, b, args, opts, channel, channelBytes, hits, hitsBytes, st, boardHost, boardBytes);

  int wstatus = 0;
  auto start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point launched{};
  bool killed = false;
  for (;;) {
    if (waitpid(pid, &wstatus, WNOHANG) == pid) break;
    auto now = std::chrono::steady_clock::now();
    if (launched == std::chrono::steady_clock::time_point{} && st->state.load() >= kLaunched) launched = now;
    bool hung = launched != std::chrono::steady_clock::time_point{} &&
                std::chrono::duration<double>(now - launched).count() > opts.timeoutSeconds;
    bool stuckInSetup = std::chrono::duration<double>(now - start).count() > opts.timeoutSeconds + 120;
    if (hung || stuckInSetup) {
      if (hung && boardHost) {  // who waits where: the child copies the wait board out first
        st->boardDump.store(1);
        for (int i = 0; i < 3000 && st->boardDump.load() == 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      killed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  releaseChild(pid);
  readRecords(out, channel, hits, nsites);
  out.device = st->device[0] ? st->device : "CUDA device " + std::to_string(opts.device);
  if (st->records[0]) out.device += std::string("; ") + st->records;
  out.seconds = st->seconds;
  out.kernelMsMedian = st->kernelMsMedian;
  int state = st->state.load();
  if (killed && state == kLaunched) {
    out.status = LaunchOutcome::TimedOut;
    out.message = fmt::format("the kernel ran longer than {} s on the GPU and was stopped", opts.timeoutSeconds);
    int dump = st->boardDump.load();
    if (dump == 2) out.waiters = waitersFromBoard(boardHost, b.grid.data(), b.block.data(), km.sites);
    if (dump == 1) out.message += " (where threads waited is unknown: the wait board's copy did not finish)";
    if (dump == 3) out.message += fmt::format(" (where threads waited is unknown: {})", st->boardNote);
  } else if (state == kDone) {
    out.status = LaunchOutcome::Completed;
    out.blocksRun = static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2]);
  } else if (state == kKernelError) {
    out.status = LaunchOutcome::Faulted;
    out.fault.gpuError = st->error;
    out.fault.instruction = st->message;
  } else {
    out.status = LaunchOutcome::Crashed;
    out.message = st->message[0] ? st->message
                  : WIFSIGNALED(wstatus) ? fmt::format("the GPU process was killed by signal {}", WTERMSIG(wstatus))
                                         : "the GPU process ended without a result";
  }
  munmap(channel, channelBytes);
  munmap(hits, hitsBytes);
  munmap(st, sizeof(SharedStatus));
  if (boardHost) munmap(boardHost, boardBytes);
  return out;
}

}  // namespace td::cuda
