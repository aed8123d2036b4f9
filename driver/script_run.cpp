#include "driver/script_run.h"

#include <filesystem>
#include <fmt/format.h>
#include <optional>

#include "driver/channel_protocol.h"
#include "driver/launch_policy.h"
#include "driver/outputs.h"
#include "driver/script_capture.h"
#include "frontend/input_error.h"
#include "frontend/lifetime.h"
#include "frontend/profile.h"
#include "frontend/work_deadline.h"
#include "runtime/executor_limit.h"

namespace fs = std::filesystem;

namespace td {

namespace {

// Removes a temporary capture folder however the check ends.
struct TempDirGuard {
  std::string dir;
  ~TempDirGuard() {
    std::error_code ec;
    if (!dir.empty()) fs::remove_all(dir, ec);
    if (!dir.empty()) releaseTemporary(dir);
  }
};

// DIR/NAME for --save-inputs / --save-outputs of one launch or kernel ("" when the option is off).
std::string subFolder(const std::string& dir, const std::string& name) {
  if (dir.empty()) return dir;
  std::string sub = (fs::path(dir) / name).string();
  makeOutputFolder(sub, "output");
  return sub;
}

class ScriptChecker {
 public:
  explicit ScriptChecker(const ScriptCheckRequest& req) : args_(req), policy_(LaunchPolicy::parse(req.launches)) {}

  // A launch request from the script: run it (checked or not), leave every buffer in `outputs`.
  nlohmann::json onLaunch(const nlohmann::json& m) {
    LaunchRequest request;
    try {
      request = parseLaunchRequest(m);
    } catch (const ChannelError& e) {  // the script's launch fails with this message, by name
      return channelReply(false, e.what());
    }
    Run item;
    item.launch = request.launch;
    item.part = request.part;
    item.parts = request.parts;
    item.entry = request.entry;
    item.bundle = request.bundle;
    item.folder = fs::path(item.bundle).parent_path().filename().string();
    item.compiledAt = request.compiledAt;
    item.calledAt = request.calledAt;
    item.shapes = request.shapes;
    item.scalars = request.scalars;
    if (item.part == 0) decision_ = policy_.decide(item.launch, request.key);
    item.checked = decision_.check;
    item.sameAs = decision_.sameAs;
    nlohmann::json reply = channelReply(false);
    CheckRequest req = args_.check;
    if (!item.checked) {  // runs uninstrumented, for its outputs: nothing of it is reported or inspected
      req.checks = "", req.settings.clear(), req.repeat = 1;
      req.inspectModule = nullptr;
    }
    if (std::optional<CheckResult> res = run(item, req)) {
      for (Finding& f : res->report.findings) f.notes.push_back("in the launch at " + item.calledAt);
      try {  // the launch's buffers go back to the script
        const std::string& outputs = request.outputs;
        makeOutputFolder(outputs, "launch output");
        saveOutputs(*res, outputs, true);
        if (!res->report.launched) reply["message"] = "the kernel was not launched: it exceeds the target's limits";
        else if (res->report.exitCode() == 3) reply["message"] = "the kernel crashed or hung (see tile-doctor's report)";
        else reply["ran"] = true;
      } catch (const std::exception& e) {
        item.error = std::string("handing the outputs back: ") + e.what();
        item.errorCode = 4;
      }
      item.report = std::move(res->report);
    }
    if (!item.error.empty()) reply["message"] = item.error;
    items_.push_back(std::move(item));
    return reply;
  }

  // Kernels the script compiled and never launched: checked as their bundles stand. One whose symbolic
  // sizes no call gave cannot be: beside other runs it is a note in `notes` (it must not fail the run and
  // hide their findings); alone it is the run's error, since nothing was checked.
  void checkUnlaunched(const CaptureResult& cap, std::vector<ScriptNote>& notes) {
    std::vector<Run> unsized;
    for (const CapturedKernel& k : cap.kernels) {
      if (k.launched) continue;
      Run item;
      item.entry = k.entry;
      item.bundle = k.bundle;
      item.folder = fs::path(k.bundle).parent_path().filename().string();
      item.compiledAt = k.from;
      if (!k.unresolved.empty()) {
        std::string names;
        for (auto& u : k.unresolved) names += (names.empty() ? "" : ", ") + u;
        item.errorWhere = k.from;
        item.error = fmt::format("kernel {} has symbolic dimensions without a value ({}) and the script never "
                                 "launched it; give each with --param NAME=VALUE",
                                 k.entry, names);
        unsized.push_back(std::move(item));
        continue;
      } else if (std::optional<CheckResult> res = run(item, args_.check)) {
        item.report = std::move(res->report);
      }
      items_.push_back(std::move(item));
    }
    if (items_.empty()) {
      for (Run& u : unsized) items_.push_back(std::move(u));
      return;
    }
    for (const Run& u : unsized) notes.push_back({u.compiledAt, "not checked: " + u.error});
  }

  bool empty() const { return items_.empty(); }
  std::vector<Run> takeRuns() { return std::move(items_); }

 private:
  // One check of the item's bundle; on failure the error goes into the item (exit code and message).
  std::optional<CheckResult> run(Run& item, CheckRequest req) {
    req.bundlePath = item.bundle;
    try {
      req.saveInputs = subFolder(args_.check.saveInputs, item.folder);
      CheckResult res = runCheck(req);
      for (Finding& f : res.report.findings)  // launch-limit findings sit at a manifest line: name the script's
        if (f.loc.file == res.bundle.manifestPath) f.loc.python = item.compiledAt;
      saveOutputs(res, subFolder(args_.saveOutputs, item.folder));
      if (args_.onChecked && !req.checks.empty()) args_.onChecked(item, res);
      return res;
    } catch (ExecutorCannotRun& e) {
      if (e.loc.python.empty()) e.loc.python = item.calledAt.empty() ? item.compiledAt : item.calledAt;
      item.errorWhere = e.where();
      item.error = e.what();
      item.errorCode = kExitExecutorCannotRun;
    } catch (const InputError& e) {
      item.errorWhere = e.where();
      item.error = e.what();
    } catch (const WorkTimedOut& e) {
      item.error = e.what();
      item.errorCode = 3;
    } catch (const std::exception& e) {
      item.error = std::string("internal error: ") + e.what();
      item.errorCode = 4;
    }
    return std::nullopt;
  }

  const ScriptCheckRequest& args_;
  LaunchPolicy policy_;
  LaunchPolicy::Decision decision_;
  std::vector<Run> items_;
};

}  // namespace

nlohmann::json captureProfileJson(const std::string& target) {
  Profile p = loadProfile(target.empty() ? kDefaultTarget : target);
  return {{"name", p.name}, {"sm_count", p.smCount}, {"memory_bytes", p.memoryBytes}, {"warp_size", p.warpSize},
          {"threads_per_sm", p.threadsPerSm}, {"shared_per_block", p.sharedPerBlock}, {"shared_per_sm", p.sharedPerSm},
          {"registers_per_sm", p.registersPerSm}};
}

RunSet checkScriptRuns(const ScriptCheckRequest& r) {
  CaptureRequest creq;
  creq.script = r.check.bundlePath;
  creq.scriptArgs = r.scriptArgs;
  creq.arch = r.tilelangArch;
  creq.lowering = r.lowering;
  creq.params = r.check.params;
  creq.keepDir = r.keep;
  creq.profile = captureProfileJson(r.check.target);
  creq.autotune = r.autotune;
  creq.stdoutToStderr = r.stdoutToStderr;
  creq.seed = r.seedScript;
  creq.memoryTimeline = r.memoryTimeline;
  creq.memoryVizPath = r.memoryVizPath;
  creq.channel = r.channel;
  ScriptChecker checker(r);
  TempDirGuard guard;
  CaptureResult cap = captureScript(creq, [&](const nlohmann::json& m) { return checker.onLaunch(m); });
  if (cap.temporary) guard.dir = cap.dir;
  checker.checkUnlaunched(cap, cap.notes);
  // A served block (tile_doctor.checking, a test of pytest --tile-doctor) that compiled no kernel is a report
  // of no launches, not an error: most of a suite's tests are not kernel tests.
  if (checker.empty() && r.channel.empty()) {
    if (cap.scriptExit != 0)
      throw InputError(cap.exitWhere.empty() ? creq.script : cap.exitWhere, 0,
                       "the script stopped here (" + cap.exitWhy + ") before it compiled a TileLang kernel");
    throw InputError(creq.script, 0,
                     "the script ran to its end without compiling a TileLang kernel (tilelang.compile or a "
                     "@tilelang.jit function called with its shape arguments); see docs/guide-tilelang.md");
  }
  RunSet set;
  set.runs = checker.takeRuns();
  ScriptRun& run = set.script.emplace();
  run.script = creq.script;
  run.scriptAbsolute = fs::absolute(creq.script).string();
  run.tilelangVersion = cap.tilelangVersion;
  run.arch = cap.lowering.empty() ? creq.arch : cap.lowering;
  run.hostDevice = cap.hostDevice;
  run.exitCode = cap.scriptExit;
  run.exitWhere = cap.exitWhere;
  run.exitWhy = cap.exitWhy;
  run.notes = cap.notes;
  run.keptBundles = !cap.temporary;
  run.keptIn = cap.dir;
  run.memory = cap.memory;
  return set;
}

}  // namespace td
