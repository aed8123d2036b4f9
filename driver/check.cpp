#include "driver/check.h"

#include "frontend/line_map.h"
#include "frontend/profile.h"
#include <filesystem>
#include "instrument/pipeline.h"
#include "instrument/shared_layout.h"
#include "driver/block_selection.h"
#include "frontend/input_error.h"
#include "runtime/cpu/cpu_executor.h"
#include "runtime/cuda/cuda_executor.h"
#include "sanitizer/collector.h"
#include "sanitizer/launch_limits.h"

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
// Findings in a generated source also name the script line that generated them.
void addScriptLines(std::vector<Finding>& findings, const std::string& source, const LineMap& map) {
  for (Finding& f : findings) {
    if (f.loc.file.empty() || std::filesystem::path(f.loc.file).lexically_normal() != std::filesystem::path(source))
      continue;
    if (auto it = map.find(f.loc.line); it != map.end()) f.loc.python = it->second;
  }
}
}  // namespace

CheckResult runCheck(const CheckRequest& req) {
  CheckResult res;
  Profile profile = loadProfile(req.target.empty() ? kDefaultTarget : req.target);
  CheckSet checks = CheckSet::parse(req.checks);
  res.bundle = loadBundle(req.bundlePath, req.params);
  const Bundle& b = res.bundle;
  const LineMap scriptLines = b.lineMapPath.empty() ? LineMap{} : loadLineMap(b.lineMapPath);
  KernelModule km = buildKernelModule(b, checks);

  Report& r = res.report;
  r.kernel = b.entry;
  r.bundle = b.manifestPath;
  r.target = profile.name;
  r.executor = "cpu";
  r.device = "host CPU";
  r.grid = b.grid;
  r.block = b.block;
  r.dynamicShared = b.dynamicShared;
  r.staticShared = static_cast<int64_t>(layOutShared(km.sites).staticBytes);
  r.blocksTotal = static_cast<uint64_t>(b.grid[0] * b.grid[1] * b.grid[2]);
  r.compileSeconds = km.compileSeconds + km.instrumentSeconds;

  if (checks.has("launch")) {
    r.findings = checkLaunchLimits(b, profile, static_cast<uint64_t>(r.staticShared));
    if (!r.findings.empty()) return res;
  }
  res.args = makeArguments(b, req.seed, profile.memoryBytes);
  if (!req.saveInputs.empty())
    for (const ArgValue& a : res.args)
      if (a.spec->isBuffer) writeNpy(req.saveInputs + "/" + a.spec->name + ".npy", *a.spec, a.data);
  BlockSelection sel = selectBlocks(req.blocks, b.grid, req.seed);
  LaunchOptions launch = req.launch;
  launch.blocks = sel.blocks;
  bool onGpu = chooseExecutor(req) == "cuda";  // the GPU always runs the whole grid
  r.blocksNote = onGpu || sel.all ? "" : sel.description;
  LaunchOutcome out = onGpu ? cuda::runOnCuda(km, b, res.args, launch)
                            : cpu::runOnCpu(km, b, res.args, profile.warpSize, launch);
  r.launched = true;
  r.executor = out.executor;
  r.device = out.device;
  r.blocksRun = out.blocksRun;
  r.runSeconds = out.seconds;
  r.kernelMsMedian = out.kernelMsMedian;
  r.recordsDropped = out.recordsDropped;
  std::vector<Finding> found = collectFindings(out, km.sites, b);
  r.findings.insert(r.findings.end(), found.begin(), found.end());
  addScriptLines(r.findings, b.sourcePath, scriptLines);
  return res;
}

}  // namespace td
