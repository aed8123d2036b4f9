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
#include "runtime/regions.h"
#include "runtime/shared_mapping.h"
#include <unistd.h>

#include "frontend/lifetime.h"
#include "instrument/shared_layout.h"
#include "runtime/bake.h"
#include "runtime/cuda/driver.h"
#include "runtime/cuda/nvml.h"
#include "runtime/cuda/tensor_maps.h"
#include "runtime/cuda/ptx.h"
#include "runtime/executor_limit.h"

namespace td::cuda {

namespace {

constexpr int kMaxTimingSamples = 1 << 20, kMaxClockSamples = 4096;
constexpr double kClockPeriodSeconds = 0.005;  // NVML is read at most this often while timed launches run

// A limit of this executor, not a fault of the kernel (exit 6): named at the bundle and its entry.
ExecutorCannotRun cannotRunHere(const Bundle& b, const std::string& why) {
  return ExecutorCannotRun(SourceLoc{b.manifestPath, 0, 0, b.entry}, why);
}

enum ChildState : int { kSetup = 0, kLaunched = 1, kDone = 2, kKernelError = 3, kSetupError = 4, kLaunchRejected = 5,
                        kCannotRun = 6 };

// Written by the child, read by the parent.
struct SharedStatus {
  std::atomic<int> state;
  std::atomic<int> hangCopy;  // hang reports: 1 the parent asks for the hang-report regions, 2 copied, 3 failed
  char hangNote[128];         // why the copy failed
  double seconds;
  int32_t timingCount, clockCount, timingCapped;
  double timedSeconds;
  float timingMs[kMaxTimingSamples];
  ClockSample clocks[kMaxClockSamples];
  char clocksNote[200];  // why no clocks were read
  char device[160];
  char records[160];   // how records reach the host
  char error[96];      // CUDA error name
  char message[1024];  // what failed
};


struct KernelError : std::runtime_error {
  KernelError(std::string name, const std::string& what, bool rejected = false)
      : std::runtime_error(what), name(std::move(name)), rejected(rejected) {}
  std::string name;
  bool rejected;  // cuLaunchKernel refused it: the kernel never ran
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

// The clocks of the GPU the launches run on, where NVML knows it; `why` says otherwise.
bool openNvml(const Driver& d, CUdevice dev, Nvml& nvml, std::string& why) {
  char bus[32] = {0};
  if (!d.cuDeviceGetPCIBusId || d.cuDeviceGetPCIBusId(bus, sizeof bus, dev) != 0) {
    why = "the CUDA driver did not give the device's PCI bus id";
    return false;
  }
  return nvml.open(bus, why);
}

// `opts.timingLaunches` more launches (and more until `opts.timingSeconds` have passed), CUDA events
// around each, NVML's clocks read every few milliseconds between them; each time and sample goes to `st`.
// The checked launch's records and counts are restored afterwards, so the report describes that one
// launch only.
void timeLaunches(const Driver& d, CUdevice dev, CUfunction fn, const Bundle& b, uint32_t dynamicShared,
                  std::vector<void*>& params, const LaunchOptions& opts, SharedStatus* st, td_channel* channel,
                  uint32_t* hits, size_t hitsBytes, const std::function<void()>& beforeEach) {
  std::vector<uint32_t> savedHits(hits, hits + hitsBytes / sizeof(uint32_t));
  uint32_t savedCursor = channel->cursor;
  Nvml nvml;
  std::string why;
  bool clocks = openNvml(d, dev, nvml, why);
  if (!clocks) copyText(st->clocksNote, sizeof st->clocksNote, why);
  CUevent start, stop;
  check(d, d.cuEventCreate(&start, 0), "cuEventCreate");
  check(d, d.cuEventCreate(&stop, 0), "cuEventCreate");
  auto t0 = std::chrono::steady_clock::now();
  double lastSample = -1, elapsed = 0;
  // the clocks' samples spread over the whole time asked
  double period = std::max(kClockPeriodSeconds, opts.timingSeconds / kMaxClockSamples);
  for (int i = 0;; ++i) {
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (i >= opts.timingLaunches && elapsed >= opts.timingSeconds) break;
    if (i == kMaxTimingSamples) {
      st->timingCapped = 1;
      break;
    }
    if (clocks && st->clockCount < kMaxClockSamples && elapsed - lastSample >= period) {
      ClockSample s;
      s.launch = i;
      s.seconds = static_cast<float>(elapsed);
      if (nvml.read(s)) st->clocks[st->clockCount++] = s;
      lastSample = elapsed;
    }
    beforeEach();
    d.cuEventRecord(start, nullptr);
    check(d, launchOnce(d, fn, b, dynamicShared, params), "cuLaunchKernel");
    d.cuEventRecord(stop, nullptr);
    check(d, d.cuEventSynchronize(stop), "cuEventSynchronize");
    float t = 0;
    d.cuEventElapsedTime(&t, start, stop);
    st->timingMs[st->timingCount++] = t;
  }
  st->timedSeconds = elapsed;
  std::copy(savedHits.begin(), savedHits.end(), hits);
  channel->cursor = savedCursor;
}

// The check families' regions on the GPU (abi.h): the block- and thread-scope ones that prefer shared
// memory in the block's own shared tail where they all fit, the rest in global memory, one instance per
// block, thread or buffer. All zero at launch.
struct DeviceRegions {
  std::vector<td_region> table;  // as the module sees it
  std::vector<BufferRegions> buffers;
  uint32_t tailBytes = 0;  // of shared memory per block, after the kernel's dynamic array
  std::vector<std::pair<CUdeviceptr, size_t>> allocations;
  void zero(const Driver& d) const {  // for another launch (the timing runs start from a fresh state too)
    for (auto [p, n] : allocations) check(d, d.cuMemsetD8(p, 0, n), "cuMemsetD8 (checks' device state)");
  }
  uint32_t dynamicShared(const Bundle& b) const {  // the launch's dynamic shared bytes
    auto dynamic = static_cast<uint32_t>(b.dynamicShared);
    return tailBytes ? TD_SHARED_TAIL_OFFSET(dynamic) + tailBytes : dynamic;
  }
};
constexpr uint64_t kDeviceStateLimit = 32ull << 30;  // of the GPU's memory, for all of it together
constexpr uint64_t kHangReadbackLimit = 64ull << 20;  // a hang-report region larger than this is left out

CUdeviceptr zeroedAlloc(const Driver& d, size_t bytes, DeviceRegions& dr) {
  CUdeviceptr p = 0;
  check(d, d.cuMemAlloc(&p, bytes), "cuMemAlloc (checks' device state)");
  check(d, d.cuMemsetD8(p, 0, bytes), "cuMemsetD8 (checks' device state)");
  dr.allocations.emplace_back(p, bytes);
  return p;
}

// The launch's blocks and threads per block, which decide how many instances a region has.
struct LaunchSize {
  uint64_t blocks, threads;
  explicit LaunchSize(const Bundle& b)
      : blocks(static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2])),
        threads(static_cast<uint64_t>(b.threadsPerBlock())) {}
  uint64_t instances(const td_region& r) const {
    return r.scope == TD_SCOPE_BLOCK ? blocks : r.scope == TD_SCOPE_THREAD ? blocks * threads : 1;
  }
};

// The kernel's window (its static arrays as laid out here, then the dynamic array), with 1 KiB of slack
// for the assembler's padding; a family's device code skips anything past its regions.
uint64_t kernelSharedBytes(const KernelModule& km, const Bundle& b) {
  return layOutShared(km.sites).dynamicOffset + static_cast<uint64_t>(b.dynamicShared);
}

// The regions sized for this launch, once, in the parent (which maps what comes back); the child it forks
// places them.
std::vector<td_region> sizedRegions(const KernelModule& km, const Bundle& b, const LaunchOptions& opts) {
  std::vector<td_region> table = opts.regions;
  sizeRegions(table, kernelSharedBytes(km, b) + 1024, km.sites.sites.size());
  LaunchSize size(b);
  for (td_region& r : table)
    if ((r.flags & TD_REGION_HANG_READBACK) && (r.scope != TD_SCOPE_THREAD || r.bytes * size.instances(r) > kHangReadbackLimit))
      r = td_region{};
  return table;
}

// Places the sized regions: all that prefer shared memory in the block's tail when together they fit,
// everything else in global memory.
DeviceRegions allocateRegions(const Driver& d, const KernelModule& km, const Bundle& b, const std::vector<ArgValue>& args,
                              const std::vector<td_region>& sized, uint64_t sharedPerBlockLimit) {
  DeviceRegions dr;
  dr.table = sized;
  LaunchSize size(b);
  std::vector<td_region> placed = sized;
  uint64_t tail = 0;
  for (td_region& r : placed)
    if (present(r) && (r.flags & TD_REGION_PREFER_SHARED) && !(r.flags & TD_REGION_HANG_READBACK) &&
        (r.scope == TD_SCOPE_BLOCK || r.scope == TD_SCOPE_THREAD)) {
      r.flags |= TD_REGION_IN_SHARED;
      r.shared_offset = static_cast<uint32_t>(tail);
      tail += roundUp16(r.bytes * (r.scope == TD_SCOPE_THREAD ? size.threads : 1));
    }
  if (tail && kernelSharedBytes(km, b) + 1024 + TD_SHARED_TAIL_ALIGN + tail <= sharedPerBlockLimit) {
    dr.table = placed;
    dr.tailBytes = static_cast<uint32_t>(tail);
  }
  auto inGlobal = [](const td_region& r) {
    return present(r) && !(r.flags & TD_REGION_IN_SHARED) && r.scope != TD_SCOPE_BUFFER;
  };
  std::vector<BufferRegionNeed> needs = bufferRegionNeeds(dr.table, args, km.sites.sites.size());
  uint64_t total = 0;
  for (const td_region& r : dr.table)
    if (inGlobal(r)) total += r.bytes * size.instances(r);
  for (const BufferRegionNeed& n : needs) total += n.bytes;
  if (total > kDeviceStateLimit)  // the tool's limit, not the kernel's fault: exit 6, as the CPU executor's refusals
    throw cannotRunHere(b, fmt::format("the checks need {:.1f} GiB of GPU memory for their state in this launch "
                                       "(limit {} GiB): run them on the CPU executor, or leave some out with --checks",
                                       total / double(1ull << 30), kDeviceStateLimit >> 30));
  dr.buffers.assign(args.size(), BufferRegions{});
  for (const BufferRegionNeed& n : needs) dr.buffers[n.arg][n.slot] = zeroedAlloc(d, n.bytes, dr);
  for (td_region& r : dr.table)
    if (inGlobal(r)) r.base = zeroedAlloc(d, r.bytes * size.instances(r), dr);
  return dr;
}

// Regions that come back to the host: where each lies in the mapping the parent reads.
struct ReadbackSlot {
  unsigned id;
  size_t offset, bytes;
  bool onHang;   // TD_REGION_HANG_READBACK: copied when the launch is stopped for time, else after it
  int arg = -1;  // a per-buffer region's instance: its argument
};

std::vector<ReadbackSlot> readbackSlots(const std::vector<td_region>& table, const Bundle& b,
                                        const std::vector<ArgValue>& args, uint64_t nsites, size_t& totalBytes) {
  std::vector<ReadbackSlot> slots;
  LaunchSize size(b);
  totalBytes = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    const td_region& r = table[i];
    bool hang = present(r) && (r.flags & TD_REGION_HANG_READBACK);
    if (!hang && !readBackAfterLaunch(r)) continue;
    size_t bytes = r.bytes * size.instances(r);
    slots.push_back({static_cast<unsigned>(i), totalBytes, bytes, hang});
    totalBytes += roundUp16(bytes);
  }
  for (const BufferRegionNeed& n : bufferRegionNeeds(table, args, nsites))
    if (buffersReadBack(table[n.id])) {
      slots.push_back({n.id, totalBytes, n.bytes, false, static_cast<int>(n.arg)});
      totalBytes += roundUp16(n.bytes);
    }
  return slots;
}

// Hang reports: when the parent asks (the launch ran past its timeout), copies the hang-report regions
// out on a stream of its own, which does not wait for the hung kernel, into the mapping the parent reads.
void copyHangRegionsWhenAsked(const Driver& d, CUcontext ctx, const DeviceRegions& dr, std::vector<ReadbackSlot> slots,
                              uint8_t* host, size_t hostBytes, SharedStatus* st) {
  d.cuMemHostRegister(host, hostBytes, kHostRegisterPortable);  // pinned: the copy need not stage (best effort)
  std::vector<std::pair<CUdeviceptr, ReadbackSlot>> copies;
  for (const ReadbackSlot& slot : slots)
    if (slot.onHang) copies.emplace_back(dr.table[slot.id].base, slot);
  std::thread([&d, ctx, copies, host, st] {
    while (st->hangCopy.load() != 1) {
      if (st->state.load() != kLaunched) return;  // finished: nobody will ask
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CUstream stream = nullptr;
    const char* step = "cuCtxSetCurrent";
    CUresult r = d.cuCtxSetCurrent(ctx);
    if (r == 0) r = d.cuStreamCreate(&stream, kStreamNonBlocking), step = "cuStreamCreate";
    for (const auto& [from, slot] : copies)
      if (r == 0) r = d.cuMemcpyDtoHAsync(host + slot.offset, from, slot.bytes, stream), step = "cuMemcpyDtoHAsync";
    if (r == 0) r = d.cuStreamSynchronize(stream), step = "cuStreamSynchronize";
    if (r != 0) copyText(st->hangNote, sizeof st->hangNote, fmt::format("{}: {}", step, d.errorName(r)));
    st->hangCopy.store(r == 0 ? 2 : 3);
  }).detach();
}

[[noreturn]] void childMain(KernelModule& km, const Bundle& b, std::vector<ArgValue>& args, const LaunchOptions& opts,
                            td_channel* channel, size_t channelBytes, uint32_t* hits, size_t hitsBytes,
                            SharedStatus* st, const std::vector<td_region>& sized, uint8_t* readbackHost,
                            size_t readbackBytes, const std::vector<ReadbackSlot>& readbacks) {
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
    DeviceRegions regions = allocateRegions(d, km, b, args, sized, static_cast<uint64_t>(sharedOptin));
    const uint32_t dynamicShared = regions.dynamicShared(b);
    // The control block is baked into the module as on the CPU: the checks read immediates.
    td_ctl ctl = makeControlBlock(args, std::vector<uint64_t>(devPtrs.begin(), devPtrs.end()),
                                  static_cast<uint32_t>(km.sites.sites.size()), static_cast<uint32_t>(b.dynamicShared),
                                  channelDev, hitsDev, regions.table, regions.buffers);
    ctl.shared_tail_bytes = regions.tailBytes;
    ctl.lanes_concurrent = 1;
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
    // An inline instruction that needs a later PTX ISA than LLVM 19 writes (TileLang's sm_90 fp8 TMA copies:
    // 8.6): the same PTX again under the version ptxas asked for, once. Still refused, it is this executor's
    // limit; any other refusal of the PTX is ours and stays a crash.
    if (std::string version = r != 0 ? ptxVersionTheLogAsks(log) : ""; !version.empty()) {
      ptx = withPtxVersion(ptx, version);
      log[0] = 0;
      r = d.cuModuleLoadDataEx(&mod, ptx.c_str(), 2, options, values);
    }
    if (r != 0 && std::strstr(log, "requires PTX ISA"))
      throw cannotRunHere(b, fmt::format("ptxas refuses the PTX tile-doctor wrote for this kernel: it needs a newer PTX "
                                         "ISA than LLVM 19's NVPTX back end writes ({}): {}", d.errorName(r), log));
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
    if (r != 0) throw KernelError(d.errorName(r), "cuLaunchKernel: " + d.errorString(r), true);
    if (readbackHost) copyHangRegionsWhenAsked(d, ctx, regions, readbacks, readbackHost, readbackBytes, st);
    r = d.cuCtxSynchronize();
    st->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r != 0) throw KernelError(d.errorName(r), d.errorString(r));
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].spec->isBuffer) check(d, d.cuMemcpyDtoH(args[i].data, devPtrs[i], args[i].bytes), "cuMemcpyDtoH");
    for (const ReadbackSlot& slot : readbacks)
      if (!slot.onHang) {
        CUdeviceptr from = slot.arg >= 0 ? regions.buffers[slot.arg][regions.table[slot.id].slot] : regions.table[slot.id].base;
        check(d, d.cuMemcpyDtoH(readbackHost + slot.offset, from, slot.bytes), "cuMemcpyDtoH (read back)");
      }
    if (opts.timed())
      timeLaunches(d, dev, fn, b, dynamicShared, params, opts, st, static_cast<td_channel*>(gRecords.channel),
                   static_cast<uint32_t*>(gRecords.hits), hitsBytes, [&] { regions.zero(d); });
    gRecords.flush();
    st->state.store(kDone);
    _exit(0);
  } catch (const KernelError& e) {
    gRecords.flush();
    copyText(st->error, sizeof st->error, e.name);
    copyText(st->message, sizeof st->message, e.what());
    st->state.store(e.rejected ? kLaunchRejected : kKernelError);
    _exit(3);
  } catch (const ExecutorCannotRun& e) {
    gRecords.flush();
    copyText(st->message, sizeof st->message, e.what());
    st->state.store(kCannotRun);
    _exit(6);
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
  std::string cannotRun;  // the child met a limit of this executor: thrown once the mappings are released
  out.executor = "cuda";
  uint32_t nsites = static_cast<uint32_t>(km.sites.sites.size());
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto roundUp = [&](size_t n) { return (n + page - 1) / page * page; };  // host registration works on pages
  size_t channelBytes = roundUp(sizeof(td_channel) + sizeof(td_record) * opts.channelCapacity);
  size_t hitsBytes = roundUp(sizeof(uint32_t) * (nsites * TD_KIND_COUNT + 1));
  auto* channel = mapShared<td_channel>(channelBytes);
  ChannelSeal seal = sealChannel(channel, opts.channelCapacity, b.grid, b.block);
  auto* hits = mapShared<uint32_t>(hitsBytes);
  auto* st = mapShared<SharedStatus>(sizeof(SharedStatus));
  // Regions that come back (after the launch, or who waits where in a hang), through this mapping.
  size_t readbackBytes = 0;
  const std::vector<td_region> sized = sizedRegions(km, b, opts);
  std::vector<ReadbackSlot> readbacks = readbackSlots(sized, b, args, nsites, readbackBytes);
  readbackBytes = readbackBytes ? roundUp(readbackBytes) : 0;
  auto* readbackHost = readbackBytes ? mapShared<uint8_t>(readbackBytes) : nullptr;

  std::fflush(nullptr);
  pid_t pid = forkChildOfTool();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) childMain(km, b, args, opts, channel, channelBytes, hits, hitsBytes, st, sized, readbackHost, readbackBytes,
                          readbacks);

  int wstatus = 0;
  auto start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point launched{};
  bool killed = false;
  for (;;) {
    if (waitpid(pid, &wstatus, WNOHANG) == pid) break;
    auto now = std::chrono::steady_clock::now();
    if (launched == std::chrono::steady_clock::time_point{} && st->state.load() >= kLaunched) launched = now;
    // timed launches follow the checked one: they get their own time on top
    double allowed = opts.timeoutSeconds + (opts.timed() ? opts.timingSeconds + opts.timeoutSeconds : 0);
    bool hung = launched != std::chrono::steady_clock::time_point{} &&
                std::chrono::duration<double>(now - launched).count() > allowed;
    bool stuckInSetup = std::chrono::duration<double>(now - start).count() > opts.timeoutSeconds + 120;
    if (hung || stuckInSetup) {
      bool hangRegions = std::any_of(readbacks.begin(), readbacks.end(), [](const ReadbackSlot& r) { return r.onHang; });
      if (hung && hangRegions) {  // who waits where: the child copies the hang-report regions out first
        st->hangCopy.store(1);
        for (int i = 0; i < 3000 && st->hangCopy.load() == 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      killed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  releaseChild(pid);
  readRecords(out, channel, seal, hits, nsites);
  auto text = [](const char* s, size_t n) { return std::string(s, strnlen(s, n)); };  // the child's: maybe unterminated
  out.device = st->device[0] ? text(st->device, sizeof st->device) : "CUDA device " + std::to_string(opts.device);
  if (st->records[0]) out.device += "; " + text(st->records, sizeof st->records);
  out.seconds = st->seconds;
  out.timing.ms.assign(st->timingMs, st->timingMs + std::clamp(st->timingCount, 0, kMaxTimingSamples));
  out.timing.clocks.assign(st->clocks, st->clocks + std::clamp(st->clockCount, 0, kMaxClockSamples));
  out.timing.clocksNote = st->clocksNote;
  out.timing.seconds = st->timedSeconds;
  out.timing.capped = st->timingCapped != 0;
  int state = st->state.load();
  auto back = [&](const ReadbackSlot& r) {
    return std::vector<uint8_t>(readbackHost + r.offset, readbackHost + r.offset + r.bytes);
  };
  if (killed && state == kLaunched) {
    out.status = LaunchOutcome::TimedOut;
    out.message = fmt::format("the kernel ran longer than {} s on the GPU and was stopped", opts.timeoutSeconds);
    int copied = st->hangCopy.load();
    for (const ReadbackSlot& r : readbacks)
      if (r.onHang && copied == 2) out.readbacks.push_back({r.id, back(r)});
    if (copied == 1) out.message += " (where threads waited is unknown: the copy of the device state did not finish)";
    if (copied == 3) out.message += fmt::format(" (where threads waited is unknown: {})", st->hangNote);
  } else if (state == kDone) {
    out.status = LaunchOutcome::Completed;
    for (const ReadbackSlot& r : readbacks)
      if (!r.onHang) out.readbacks.push_back({r.id, back(r), r.arg});
    out.blocksRun = static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2]);
  } else if (state == kKernelError) {
    out.status = LaunchOutcome::Faulted;
    out.fault.gpuError = st->error;
    out.fault.instruction = st->message;
  } else if (state == kLaunchRejected) {
    out.status = LaunchOutcome::Rejected;
    out.message = fmt::format("{}: {}", st->error, st->message);
  } else if (state == kCannotRun) {
    cannotRun = st->message;
  } else {
    out.status = LaunchOutcome::Crashed;
    out.message = st->message[0] ? st->message
                  : WIFSIGNALED(wstatus) ? fmt::format("the GPU process was killed by signal {}", WTERMSIG(wstatus))
                                         : "the GPU process ended without a result";
  }
  munmap(channel, channelBytes);
  munmap(hits, hitsBytes);
  munmap(st, sizeof(SharedStatus));
  if (readbackHost) munmap(readbackHost, readbackBytes);
  if (!cannotRun.empty()) throw cannotRunHere(b, cannotRun);
  return out;
}

}  // namespace td::cuda
