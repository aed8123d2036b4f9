#include "cli/script_check.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>

#include "driver/launch_policy.h"
#include "driver/script_capture.h"
#include "frontend/input_error.h"
#include "frontend/lifetime.h"
#include "frontend/work_deadline.h"
#include "frontend/profile.h"
#include "runtime/buffers.h"
#include "runtime/executor_limit.h"
#include "sanitizer/reporters.h"

namespace fs = std::filesystem;

namespace td::cli {

bool isScript(const std::string& path) { return fs::path(path).extension() == ".py"; }

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

// Exit code over all launches: a crash or hang (3) outranks bad input (2), which outranks findings (1);
// then a kernel the executor cannot run (6), then "the script failed" (5), which only speaks when nothing
// else did.
int combine(int worst, int rc) {
  auto rank = [](int c) {
    switch (c) {
      case 4: return 6;
      case 3: return 5;
      case 2: return 4;
      case 1: return 3;
      case kExitExecutorCannotRun: return 2;
      case kExitScriptFailed: return 1;
      default: return 0;
    }
  };
  return rank(rc) > rank(worst) ? rc : worst;
}

// One kernel launch of the script, or one compiled kernel it never launched (checked with the bundle's
// synthetic inputs, as a compile-only script expects).
struct CheckedItem {
  int launch = 0;                // 0: a compiled kernel the script did not launch
  int part = 0, parts = 1;       // device kernels of one TileLang program run in order
  std::string entry, bundle, folder, compiledAt, calledAt;
  nlohmann::json shapes = nlohmann::json::object(), scalars = nlohmann::json::object();
  bool checked = true;
  int sameAs = 0;                // unchecked: the earlier launch it repeats
  std::optional<Report> report;
  std::string errorWhere, error;
  int errorCode = 2;             // bad input, 3 (--timeout in the tool's own work), kExitExecutorCannotRun, or 4
};

std::string describeShapes(const nlohmann::json& shapes, const nlohmann::json& scalars) {
  std::string s;
  for (auto& [name, v] : shapes.items()) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", name, v.get<std::string>());
  for (auto& [name, v] : scalars.items()) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", name, v.get<std::string>());
  return s;
}

class ScriptChecker {
 public:
  explicit ScriptChecker(CheckArgs& args) : args_(args), policy_(LaunchPolicy::parse(args.launches)) {}

  // A launch request from the script: run it (checked or not), leave every buffer in `outputs`.
  nlohmann::json onLaunch(const nlohmann::json& m) {
    CheckedItem item;
    item.launch = m.value("launch", 0);
    item.part = m.value("part", 0);
    item.parts = m.value("parts", 1);
    item.entry = m.value("entry", std::string());
    item.bundle = m.value("bundle", std::string());
    item.folder = fs::path(item.bundle).parent_path().filename().string();
    item.compiledAt = m.value("compiled_at", std::string());
    item.calledAt = m.value("called_at", std::string());
    if (m.contains("shapes")) item.shapes = m["shapes"];
    if (m.contains("scalars")) item.scalars = m["scalars"];
    if (item.part == 0) decision_ = policy_.decide(item.launch, m.value("key", std::string()));
    item.checked = decision_.check;
    item.sameAs = decision_.sameAs;
    nlohmann::json reply = {{"ran", false}};
    CheckRequest req = args_.req;
    if (!item.checked) req.checks = "", req.repeat = 1;  // runs uninstrumented, for its outputs
    if (std::optional<CheckResult> res = run(item, req)) {
      for (Finding& f : res->report.findings) f.notes.push_back("in the launch at " + item.calledAt);
      try {  // the launch's buffers go back to the script
        std::string outputs = m.value("outputs", std::string());
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

  // Kernels the script compiled and never launched: checked as their bundles stand.
  void checkUnlaunched(const CaptureResult& cap) {
    for (const CapturedKernel& k : cap.kernels) {
      if (k.launched) continue;
      CheckedItem item;
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
      } else if (std::optional<CheckResult> res = run(item, args_.req)) {
        item.report = std::move(res->report);
      }
      items_.push_back(std::move(item));
    }
  }

  const std::vector<CheckedItem>& items() const { return items_; }

 private:
  // One check of the item's bundle; on failure the error goes into the item (exit code and message).
  std::optional<CheckResult> run(CheckedItem& item, CheckRequest req) {
    req.bundlePath = item.bundle;
    try {
      req.saveInputs = subFolder(args_.req.saveInputs, item.folder);
      CheckResult res = runCheck(req);
      for (Finding& f : res.report.findings)  // launch-limit findings sit at a manifest line: name the script's
        if (f.loc.file == res.bundle.manifestPath) f.loc.python = item.compiledAt;
      saveOutputs(res, subFolder(args_.saveOutputs, item.folder));
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

  CheckArgs& args_;
  LaunchPolicy policy_;
  LaunchPolicy::Decision decision_;
  std::vector<CheckedItem> items_;
};

nlohmann::json profileJson(const std::string& target) {
  Profile p = loadProfile(target.empty() ? kDefaultTarget : target);
  return {{"name", p.name}, {"sm_count", p.smCount}, {"memory_bytes", p.memoryBytes}, {"warp_size", p.warpSize},
          {"threads_per_sm", p.threadsPerSm}, {"shared_per_block", p.sharedPerBlock}, {"shared_per_sm", p.sharedPerSm},
          {"registers_per_sm", p.registersPerSm}};
}

std::string itemHeading(const CheckedItem& it, int launches) {
  std::string kernel = it.parts > 1 ? fmt::format("{} (device kernel {} of {})", it.entry, it.part + 1, it.parts) : it.entry;
  if (it.launch == 0) return fmt::format("== kernel {}, compiled at {}, never launched: checked with the bundle's inputs\n",
                                         kernel, it.compiledAt);
  std::string state = it.checked ? "checked"
                                 : fmt::format("not checked (same kernel and shapes as launch {}; --launches all "
                                               "checks every one)", it.sameAs);
  if (!it.checked && it.sameAs == 0) state = "not checked (past --launches)";
  return fmt::format("== launch {} of {}: {} called at {} (compiled at {}): {}\n   {}\n", it.launch, launches, kernel,
                     it.calledAt, it.compiledAt, state, describeShapes(it.shapes, it.scalars));
}

}  // namespace

int checkScript(CheckArgs& args) {
  ReportSink sink(args);
  CaptureRequest creq;
  creq.script = args.req.bundlePath;
  creq.scriptArgs = args.scriptArgs;
  creq.arch = args.tilelangArch;
  creq.params = args.req.params;
  creq.keepDir = args.keep;
  creq.profile = profileJson(args.req.target);
  creq.autotune = args.autotune;
  creq.stdoutToStderr = args.format == "json" && args.out.empty();
  ScriptChecker checker(args);
  TempDirGuard guard;
  CaptureResult cap = captureScript(creq, [&](const nlohmann::json& m) { return checker.onLaunch(m); });
  if (cap.temporary) guard.dir = cap.dir;
  checker.checkUnlaunched(cap);
  const std::vector<CheckedItem>& items = checker.items();
  if (items.empty()) {
    if (cap.scriptExit != 0)
      throw InputError(cap.exitWhere.empty() ? creq.script : cap.exitWhere, 0,
                       "the script stopped here (" + cap.exitWhy + ") before it compiled a TileLang kernel");
    throw InputError(creq.script, 0,
                     "the script ran to its end without compiling a TileLang kernel (tilelang.compile or a "
                     "@tilelang.jit function called with its shape arguments); see docs/guide-tilelang.md");
  }

  int launches = 0, checkedCount = 0;
  for (const CheckedItem& it : items) {
    launches = std::max(launches, it.launch);
    checkedCount += it.launch > 0 && it.part == 0 && it.checked;
  }
  std::string ending = cap.scriptExit == 0 ? "to its end"
                                           : fmt::format("until it failed at {} ({})",
                                                         cap.exitWhere.empty() ? creq.script : cap.exitWhere, cap.exitWhy);
  std::string text = fmt::format(
      "tile-doctor: ran {} {}: {} launch{}, {} checked (TileLang {}, lowered for {}{})\n", creq.script, ending, launches,
      launches == 1 ? "" : "es", checkedCount, cap.tilelangVersion, creq.arch,
      cap.hostDevice ? "; no GPU: its CUDA tensors lived in host memory" : "");
  nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"script", fs::absolute(creq.script).string()}, {"tilelang_version", cap.tilelangVersion},
                      {"arch", creq.arch}, {"host_device", cap.hostDevice}, {"launches", nlohmann::json::array()},
                      {"kernels", nlohmann::json::array()}, {"notes", nlohmann::json::array()}};
  int worst = 0;
  for (const CheckedItem& it : items) {
    text += "\n" + itemHeading(it, launches);
    nlohmann::json jk = {{"entry", it.entry}, {"compiled_at", it.compiledAt}, {"folder", it.folder}};
    if (it.launch > 0)
      jk.update({{"launch", it.launch}, {"part", it.part}, {"parts", it.parts}, {"called_at", it.calledAt},
                 {"shapes", it.shapes}, {"scalars", it.scalars}, {"checked", it.checked}});
    if (it.sameAs) jk["same_as"] = it.sameAs;
    if (!cap.temporary) jk["bundle"] = it.bundle;
    if (it.report) {  // an unchecked launch still speaks when it crashed or hung
      bool speaks = it.checked || it.report->exitCode() == 3;
      if (speaks) text += renderText(*it.report, sink.colour());
      jk["report"] = reportJson(*it.report);
      if (speaks) worst = combine(worst, it.report->exitCode());
    }
    if (!it.error.empty()) {
      text += fmt::format("tile-doctor: {}: {}: {}\n",
                          it.errorCode == 2   ? "error"
                          : it.errorCode == 3 ? "stopped"
                          : it.errorCode == 4 ? "internal error"
                                              : "cannot run",
                          it.errorWhere.empty() ? it.bundle : it.errorWhere, it.error);
      jk["error"] = {{"where", it.errorWhere}, {"message", it.error}, {"exit_code", it.errorCode}};
      worst = combine(worst, it.errorCode);
    }
    j[it.launch > 0 ? "launches" : "kernels"].push_back(jk);
  }
  for (const ScriptNote& n : cap.notes) {
    text += fmt::format("\nnote: {}: {}\n", n.where, n.text);
    j["notes"].push_back({{"where", n.where}, {"text", n.text}});
  }
  j["script_exit"] = {{"code", cap.scriptExit}, {"where", cap.exitWhere}, {"why", cap.exitWhy}};
  if (cap.scriptExit != 0) {
    text += fmt::format("\nnote: the script failed at {} ({}); launches after that point did not happen\n",
                        cap.exitWhere.empty() ? creq.script : cap.exitWhere, cap.exitWhy);
    worst = combine(worst, kExitScriptFailed);
  }
  if (!cap.temporary) text += fmt::format("note: the bundles are kept in {}\n", cap.dir);
  j["exit_code"] = worst;
  sink.write(args.format == "json" ? j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" : text);
  return worst;
}

}  // namespace td::cli
