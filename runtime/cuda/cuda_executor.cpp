#include "runtime/cuda/cuda_executor.h"

#include "runtime/child_watch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <optional>
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
#include "runtime/cuda/address_constants.h"
#include "runtime/cuda/child_status.h"
#include "runtime/cuda/device_regions.h"
#include "runtime/cuda/driver.h"
#include "runtime/cuda/timed_runs.h"
#include "runtime/cuda/nvml.h"
#include "runtime/cuda/tensor_maps.h"
#include "runtime/cuda/ptx.h"
#include "runtime/cuda/capped_load.h"
#include "runtime/cuda/kernel_as_written.h"
#include "runtime/cuda/ptx_cache.h"
#include "runtime/executor_limit.h"
#include "model/hooks.h"

namespace td::cuda {

namespace {

constexpr uint64_t kCuMemAllocAlignment = 256;  // what cuMemAlloc promises every allocation

struct KernelError : std::runtime_error {
  KernelError(std::string name, const std::string& what, bool rejected = false)
      : std::runtime_error(what), name(std::move(name)), rejected(rejected) {}
  std::string name;
  bool rejected;  // cuLaunchKernel refused it: the kernel never ran
};

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
    DeviceRegions regions = allocateRegions(d, km, b, args, sized, static_cast<uint64_t>(sharedOptin), deviceOccupancy(d, dev));
    const uint32_t dynamicShared = regions.dynamicShared(b);
    // The control block is baked into the module as on the CPU: the checks read immediates, but its
    // addresses and the pointer parameters as symbols, which end as parameters and .const loads
    // (address_constants.h): one PTX text for every run of a launch shape, which the driver's cache keeps.
    td_ctl ctl = makeControlBlock(args, std::vector<uint64_t>(devPtrs.begin(), devPtrs.end()),
                                  static_cast<uint32_t>(km.sites.sites.size()), static_cast<uint32_t>(b.dynamicShared),
                                  channelDev, hitsDev, regions.table, regions.buffers);
    ctl.shared_tail_bytes = regions.tailBytes;
    ctl.lanes_concurrent = 1;
    ControlBlockAddresses runAddresses = controlBlockAddresses(ctl);
    std::map<unsigned, std::string> pointerSymbols = bufferParameterSymbols(runAddresses, args.size());
    bakeGlobal(*km.module, globalSymbol(OwnGlobal::ctl).c_str(), &ctl, sizeof ctl, runAddresses.fields,
               kCuMemAllocAlignment);
    bakeArguments(*km.module, km.entrySymbol, std::vector<const void*>(params.begin(), params.end()), pointerSymbols);
    // A source written for the device's architecture-specific features (sm_90a: wgmma, setmaxnreg) keeps them.
    std::string ptxArch = b.arch == arch + "a" ? b.arch : arch;
    // A repeated check of an unchanged kernel and launch shape takes its PTX from the cache (ptx_cache.h).
    std::vector<std::string> addressSymbols;
    for (const auto& [symbol, value] : runAddresses.values) addressSymbols.push_back(symbol);
    for (const auto& [arg, symbol] : pointerSymbols) addressSymbols.push_back(std::to_string(arg) + "=" + symbol);
    std::string ptxCacheKey = ptxKey(*km.module, ptxArch, b.grid.data(), b.block.data(), addressSymbols);
    std::optional<std::string> cachedPtx = loadPtx(ptxCacheKey);
    std::string ptx = cachedPtx ? *cachedPtx : generatePtx(*km.module, ptxArch, b.grid.data(), b.block.data(), [&](llvm::Module& m) {
      moveAddressesToConstants(m, km.entrySymbol, runAddresses.values, pointerSymbols);
    });

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
    if (ptx != cachedPtx) storePtx(ptxCacheKey, ptx);  // the text that loaded, after any version retry
    copyText(st->registers, sizeof st->registers, capForOccupancy(d, dev, b, ptxArch, km.entrySymbol, ptx, dynamicShared, mod));
    // What the module reads its addresses from: the control block's bytes and the address constants.
    CUdeviceptr ctlSlot = 0;
    size_t ctlBytes = 0;
    if (d.cuModuleGetGlobal(&ctlSlot, &ctlBytes, mod, globalSymbol(OwnGlobal::ctl).c_str()) == 0) {
      if (ctlBytes != sizeof ctl) throw std::runtime_error("the module's control block differs in size from the host's");
      check(d, d.cuMemcpyHtoD(ctlSlot, &ctl, sizeof ctl), "cuMemcpyHtoD (control block)");
    }
    for (const auto& [symbol, value] : runAddresses.values) {
      CUdeviceptr slot = 0;
      size_t bytes = 0;
      if (d.cuModuleGetGlobal(&slot, &bytes, mod, addressConstant(symbol).c_str()) != 0) continue;  // not used
      if (bytes != sizeof value) throw std::runtime_error("address constant " + addressConstant(symbol) + " has the wrong size");
      check(d, d.cuMemcpyHtoD(slot, &value, sizeof value), "cuMemcpyHtoD (address constants)");
    }
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

  auto start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point launched{};
  // timed launches follow the checked one: they get their own time on top
  double allowed = opts.timeoutSeconds + (opts.timed() ? opts.timingSeconds + opts.timeoutSeconds : 0);
  bool hangRegions = std::any_of(readbacks.begin(), readbacks.end(), [](const ReadbackSlot& r) { return r.onHang; });
  ChildEnd end = watchChild(pid, std::chrono::milliseconds(1), [&] {
    auto now = std::chrono::steady_clock::now();
    if (launched == std::chrono::steady_clock::time_point{} && st->state.load() >= kLaunched) launched = now;
    bool hung = launched != std::chrono::steady_clock::time_point{} &&
                std::chrono::duration<double>(now - launched).count() > allowed;
    bool stuckInSetup = std::chrono::duration<double>(now - start).count() > opts.timeoutSeconds + 120;
    if (!hung && !stuckInSetup) return false;
    if (hung && hangRegions) {  // who waits where: the child copies the hang-report regions out first
      st->hangCopy.store(1);
      for (int i = 0; i < 3000 && st->hangCopy.load() == 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  });
  int wstatus = end.status;
  bool killed = end.killed;
  readRecords(out, channel, seal, hits, nsites);
  auto text = [](const char* s, size_t n) { return std::string(s, strnlen(s, n)); };  // the child's: maybe unterminated
  out.device = st->device[0] ? text(st->device, sizeof st->device) : "CUDA device " + std::to_string(opts.device);
  if (st->records[0]) out.device += "; " + text(st->records, sizeof st->records);
  if (st->registers[0]) out.device += "; " + text(st->registers, sizeof st->registers);
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
