#include "driver/check.h"

#include "model/family.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <fmt/format.h>
#include <set>

#include "driver/block_selection.h"
#include "frontend/input_error.h"
#include "frontend/text_bounds.h"
#include "frontend/line_map.h"
#include "frontend/profile.h"
#include "instrument/containment_pass.h"
#include "instrument/pipeline.h"
#include "instrument/shared_layout.h"
#include "profiler/register_budget.h"
#include "runtime/cpu/cpu_executor.h"
#include "runtime/cuda/cuda_executor.h"
#include "runtime/executor_limit.h"
#include "runtime/regions.h"
#include "sanitizer/benign.h"
#include "sanitizer/collector.h"
#include "sanitizer/output_diff.h"

namespace td {

namespace {
// auto: the GPU when one is usable, else the CPU. An explicit cuda without a GPU is bad input.
std::string chooseExecutor(const CheckRequest& req) {
  if (req.executor == "cpu") return "cpu";
  std::string why;
  bool gpu = cuda::gpuAvailable(req.launch.device, why);
  if (req.executor == "cuda" && !gpu) throw InputError("--executor cuda", 0, "no usable GPU: " + why);
  return gpu ? "cuda" : "cpu";
}
// TMA copies are the GPU's own hardware: the CPU executor does not run them (frontend/tensor_map.h).
void refuseTensorMapsOnTheCpu(const Bundle& b) {
  for (const ArgSpec& a : b.args)
    if (a.isTensorMap)
      throw ExecutorCannotRun(SourceLoc{b.manifestPath, static_cast<unsigned>(a.line), 0, b.entry},
                              fmt::format("kernel {} takes a Hopper TMA descriptor for {}: its TMA copies "
                                          "(cp.async.bulk.tensor) do not run on the CPU executor; run it with "
                                          "--executor cuda on an H100/H200, or check the non-Hopper form with "
                                          "--tilelang-arch sm_80",
                                          b.entry, a.name));
}

// MACA code is written for 64-lane waves (its shuffles, 64-bit masks, MMA tiles): on a 32-lane target it
// would run and compute something else without a finding.
void refuseMacaOnWave32(const Bundle& b, const Profile& profile) {
  if (b.dialect == "maca" && profile.warpSize != 64)
    throw ExecutorCannotRun(SourceLoc{b.manifestPath, static_cast<unsigned>(b.dialectLine), 0, b.entry},
                            fmt::format("dialect = \"maca\" is MetaX code, written for 64-lane waves; target {} runs "
                                        "warps of {} lanes, where it would compute something else. Check it "
                                        "with --target metax-c500 (or metax-c550)",
                                        profile.name, profile.warpSize));
}

// Findings in a generated source also name the script line that generated them.
void addScriptLines(std::vector<Finding>& findings, const std::string& source, const LineMap& map) {
  auto mapped = [&](SourceLoc& loc) {
    if (loc.file.empty() || std::filesystem::path(loc.file).lexically_normal() != std::filesystem::path(source)) return;
    if (auto it = map.find(loc.line); it != map.end()) loc.python = it->second;
  };
  for (Finding& f : findings) {
    mapped(f.loc);
    for (auto& [what, loc] : f.related) mapped(loc);
  }
}
// Runs the launch, then lets each family read what its regions brought back.
LaunchOutcome launchOn(bool onGpu, KernelModule& km, const Bundle& b, std::vector<ArgValue>& args, const Profile& profile,
                       const LaunchOptions& launch) {
  LaunchOutcome out =
      onGpu ? cuda::runOnCuda(km, b, args, launch) : cpu::runOnCpu(km, b, args, profile.warpSize, launch);
  for (const Family& f : families())
    if (f.afterLaunch) f.afterLaunch(out, km.sites, b);
  return out;
}

std::string scheduleName(const LaunchOptions& l, bool onGpu, int run) {
  if (onGpu) return fmt::format("run {}", run + 1);
  if (l.schedule == Schedule::Forward) return "forward schedule";
  if (l.schedule == Schedule::Reverse) return "reverse schedule";
  return fmt::format("random:{} schedule", l.scheduleSeed);
}

// The parent's work before a launch is bounded by --timeout too (frontend/work_deadline.h).
std::string preparing(const Bundle& b) { return fmt::format("preparing the inputs of kernel {}", b.entry); }

// --repeat N: N - 1 more runs on fresh copies of the same inputs — on the CPU under other schedules
// (reverse, then seeded random ones) — with new findings added and outputs compared with the first run.
void repeatRuns(const CheckRequest& req, const Bundle& b, const CheckSet& checks, const Profile& profile, bool onGpu,
                const LaunchOptions& first, CheckResult& res) {
  Report& r = res.report;
  std::string firstName = scheduleName(first, onGpu, 0);
  std::set<std::string> differing;  // buffers already reported
  bool anyOutput = false;           // without outputs marked, every buffer is compared
  for (const ArgValue& a : res.args) anyOutput |= a.spec->isBuffer && a.spec->output;
  for (int run = 1; run < req.repeat; ++run) {
    LaunchOptions lo = first;
    if (run == 1) lo.schedule = first.schedule == Schedule::Reverse ? Schedule::Forward : Schedule::Reverse;
    else lo.schedule = Schedule::Random, lo.scheduleSeed = first.scheduleSeed + static_cast<uint64_t>(run - 1);
    KernelModule km = buildKernelModule(b, checks, profile.ignores);  // an executor takes the module it runs
    std::vector<ArgValue> args =
        makeArguments(b, req.seed, profile.memoryBytes, WorkDeadline(first.timeoutSeconds, preparing(b)));
    LaunchOutcome out = launchOn(onGpu, km, b, args, profile, lo);
    std::set<std::string> known;
    for (const Finding& f : r.findings) known.insert(fingerprint(f));
    for (Finding& f : collectFindings(out, km.sites, b, checks.settings))
      if (!known.count(fingerprint(f))) {
        f.notes.push_back("found in the " + scheduleName(lo, onGpu, run));
        r.findings.push_back(std::move(f));
      }
    for (size_t i = 0; i < args.size(); ++i) {
      const ArgSpec& spec = *args[i].spec;
      if (!spec.isBuffer || (anyOutput && !spec.output) || differing.count(spec.name)) continue;
      WorkDeadline comparing(first.timeoutSeconds, fmt::format("comparing '{}' between runs", spec.name));
      if (auto f = diffOutputs(res.args[i], args[i], firstName, scheduleName(lo, onGpu, run), comparing)) {
        differing.insert(spec.name);
        r.findings.push_back(std::move(*f));
      }
    }
  }
  r.repeats = req.repeat;
}
}  // namespace

void parseSchedule(const std::string& text, LaunchOptions& launch) {
  if (text == "forward") launch.schedule = Schedule::Forward;
  else if (text == "reverse") launch.schedule = Schedule::Reverse;
  else if (text.rfind("random:", 0) == 0 && text.size() > 7 &&
           text.find_first_not_of("0123456789", 7) == std::string::npos) {
    launch.schedule = Schedule::Random;
    if (text.size() - 7 > 19)
      throw InputError("--schedule", 0, fmt::format("'{}': the seed must fit 64 bits", quotable(text)));
    launch.scheduleSeed = std::stoull(text.substr(7));
  } else {
    throw InputError("--schedule", 0, fmt::format("'{}' is not forward, reverse or random:SEED", text));
  }
}

CheckResult runCheck(const CheckRequest& req) {
  CheckResult res;
  Profile profile = loadProfile(req.target.empty() ? kDefaultTarget : req.target);
  CheckSet checks = CheckSet::parse(req.checks, req.settings);
  res.bundle = loadBundle(req.bundlePath, req.params);
  const Bundle& b = res.bundle;
  // Fault injection for the tests of what a run does with an internal error (one input of many fails
  // inside tile-doctor): the entry named fails as our own bug would.
  if (const char* fail = std::getenv("TILE_DOCTOR_TEST_INTERNAL_ERROR"); fail && b.entry == fail)
    throw std::logic_error("injected by TILE_DOCTOR_TEST_INTERNAL_ERROR for " + b.entry);
  const LineMap scriptLines = b.lineMapPath.empty() ? LineMap{} : loadLineMap(b.lineMapPath);
  refuseMacaOnWave32(b, profile);
  bool onGpu = chooseExecutor(req) == "cuda";  // the GPU always runs the whole grid
  // On the GPU too: the hardware faults on most wild addresses, but the record channel is host memory mapped
  // into the device, which a computed address can reach (docs/security.md).
  checks.contain = !containmentOffForBenchmarks();
  if (onGpu && req.launch.schedule != Schedule::Forward)
    throw InputError("--schedule", 0, "schedules are the CPU executor's; the GPU schedules its own threads");
  KernelModule km = buildKernelModule(b, checks, profile.ignores);  // bad input first: a bundle that does not compile is exit 2
  if (req.inspectModule) req.inspectModule(b, km);

  Report& r = res.report;
  r.kernel = b.entry;
  r.bundle = b.manifestPath;
  r.target = profile.name;
  r.executor = "cpu";
  r.device = "host CPU";
  r.grid = b.grid;
  r.block = b.block;
  r.dynamicShared = b.dynamicShared;
  r.targetDynamicShared = b.targetShared;
  r.staticShared = static_cast<int64_t>(layOutShared(km.sites).staticBytes);
  r.blocksTotal = static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2]);
  r.compileSeconds = km.compileSeconds + km.instrumentSeconds;
  r.unchecked = km.sites.unchecked;

  BeforeLaunch before{b, profile, km, static_cast<uint64_t>(r.staticShared), [&]() -> std::optional<RegisterUse> {
                        if (!registersMayNotFit(b, profile, km.launchBounds)) return std::nullopt;
                        auto u = uncheckedKernelRegisters(b, profile.arch);
                        if (!u) return std::nullopt;
                        return RegisterUse{u->registers, blockRegisters(u->registers, b.threadsPerBlock(), profile),
                                           u->source, km.launchBounds.kernel};
                      }};
  bool launchable = true;
  for (const Family& f : families())
    if (f.beforeLaunch && checks.has(f.name)) launchable = f.beforeLaunch(before, r.findings) && launchable;
  if (!launchable) return res;
  if (!onGpu) refuseTensorMapsOnTheCpu(b);
  WorkDeadline preparation(req.launch.timeoutSeconds, preparing(b));
  res.args = makeArguments(b, req.seed, profile.memoryBytes, preparation);
  if (!req.saveInputs.empty())
    for (const ArgValue& a : res.args)
      if (a.spec->isBuffer) writeNpy(req.saveInputs + "/" + a.spec->name + ".npy", *a.spec, a.data, preparation);
  BlockSelection sel = selectBlocks(req.blocks, b.grid, req.seed);
  preparation.check();
  LaunchOptions launch = req.launch;
  launch.blocks = sel.blocks;
  launch.regions = regionTable(checks.families);
  if (req.readBackBufferStates)
    for (td_region& region : launch.regions)
      if (present(region) && region.scope == TD_SCOPE_BUFFER) region.flags |= TD_REGION_READ_BACK;
  r.blocksNote = onGpu || sel.all ? "" : sel.description;
  LaunchOutcome out;
  try {
    out = launchOn(onGpu, km, b, res.args, profile, launch);
  } catch (ExecutorCannotRun& e) {  // name the script line too
    if (auto it = scriptLines.find(e.loc.line); it != scriptLines.end()) e.loc.python = it->second;
    throw;
  }
  r.launched = true;
  r.executor = out.executor;
  r.device = out.device;
  r.blocksRun = out.blocksRun;
  r.runSeconds = out.seconds;
  res.timing = std::move(out.timing);
  r.kernelMsMedian = res.timing.medianMs();
  r.recordsDropped = out.recordsDropped;
  auto perBuffer = std::stable_partition(out.readbacks.begin(), out.readbacks.end(),
                                         [](const RegionReadback& back) { return back.arg < 0; });
  std::move(perBuffer, out.readbacks.end(), std::back_inserter(res.bufferStates));
  out.readbacks.erase(perBuffer, out.readbacks.end());
  std::vector<Finding> found = collectFindings(out, km.sites, b, checks.settings);
  r.findings.insert(r.findings.end(), found.begin(), found.end());
  if (req.repeat > 1) repeatRuns(req, b, checks, profile, onGpu, launch, res);
  addScriptLines(r.findings, b.sourcePath, scriptLines);
  setBenignAside(r, checks.settings);
  return res;
}

}  // namespace td
