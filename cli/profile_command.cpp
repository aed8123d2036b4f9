// `tile-doctor profile BUNDLE [--target T]...`: a launch's resources and its occupancy on each target
// (profiler/profile_report.h).
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>

#include "cli/commands.h"
#include "cli/script_check.h"
#include "driver/check.h"
#include "driver/script_run.h"
#include "frontend/input_error.h"
#include "frontend/profile.h"
#include "profiler/memory_columns.h"
#include "profiler/profile_report.h"

namespace td::cli {

namespace fs = std::filesystem;

namespace {

struct ProfileArgs {
  std::string input, format = "text", out, timelinePng, memoryViz;
  std::vector<std::string> targets, params;
  std::string executor;     // empty: the launch is not run (resources and occupancy only)
  int timingLaunches = -1;  // -1: the default, 200
  double stability = 0, timeout = 60;
  bool timed() const { return !executor.empty() || timingLaunches >= 0 || stability > 0; }
};

// The launch runs unchecked (nothing instrumented) on the executor asked, timed on the GPU.
void askTiming(const ProfileArgs& a, CheckRequest& req) {
  req.executor = a.executor.empty() ? "auto" : a.executor;
  req.launch.timingLaunches = a.timingLaunches >= 0 ? a.timingLaunches : 200;
  req.launch.timingSeconds = a.stability;
  req.launch.timeoutSeconds = a.timeout;
}

LaunchTiming timingOf(const CheckResult& res) {
  LaunchTiming t;
  t.executor = res.report.executor;
  t.device = res.report.device;
  if (!res.report.launched || res.report.blocksRun == 0) {  // refused, or stopped by a limit before it ran
    t.notRun = res.report.findings.empty() ? "no block ran" : res.report.findings.front().title;
  } else if (t.executor == "cuda") {
    t.gpu = judgeTiming(res.timing);
  } else {
    t.blocksRun = res.report.blocksRun;
    t.threadsRun = res.report.blocksRun * static_cast<uint64_t>(res.bundle.threadsPerBlock());
  }
  return t;
}

// What the timeline says of the peak: its bytes, the launch in flight, the tensors alive (largest first)
// with the lines that made them. Null when the script wrote no timeline.
nlohmann::json memorySummary(const nlohmann::json& timeline) {
  if (!timeline.is_object()) return nullptr;
  return {{"peak_bytes", timeline.value("peak_bytes", int64_t(0))},
          {"launch_at_peak", timeline.value("launch_at_peak", nlohmann::json())},
          {"alive_at_peak", timeline.value("alive_at_peak", nlohmann::json::array())},
          {"end_bytes", timeline.value("end_bytes", int64_t(0))},
          {"events", timeline.contains("events") ? timeline["events"].size() : 0},
          {"events_dropped", timeline.value("events_dropped", int64_t(0))},
          {"memory_viz", timeline.value("memory_viz", nlohmann::json())}};
}

// The timeline as a PNG: null when none was asked; the path, or why there is no image (the report of the
// script's run stands either way).
nlohmann::json drawTimeline(const ProfileArgs& a, const nlohmann::json& timeline, const std::string& target) {
  if (a.timelinePng.empty()) return nullptr;
  try {
    writeMemoryTimelinePng(a.timelinePng, fmt::format("memory of {}'s tensors (its run for {})", a.input, target),
                           memoryColumns(timeline, 900));
  } catch (const std::exception& e) {  // no timeline written, an unwritable file, a build without cairo
    return {{"path", a.timelinePng}, {"error", e.what()}};
  }
  return {{"path", a.timelinePng}};
}

std::string memoryText(const nlohmann::json& m, const std::string& target) {
  if (m.is_null()) return "memory timeline: none (the script wrote no timeline)\n";
  std::string out = fmt::format("== memory of the script's tensors (its run for {}) ==\npeak: {} bytes", target,
                                m["peak_bytes"].get<int64_t>());
  const nlohmann::json& at = m["launch_at_peak"];
  out += at.is_object() ? fmt::format(", during launch {} at {}\n", at.value("launch", 0), at.value("where", std::string()))
                        : "\n";
  out += "alive at the peak, the largest first:\n";
  for (const nlohmann::json& t : m["alive_at_peak"])
    out += fmt::format("  {:>12} bytes  {}[{}]  made at {}\n", t.value("bytes", int64_t(0)), t.value("dtype", std::string()),
                       fmt::join(t.value("shape", std::vector<int64_t>{}), ", "), t.value("where", std::string()));
  out += fmt::format("at the end: {} bytes still alive; {} events\n", m["end_bytes"].get<int64_t>(), m["events"].get<int64_t>());
  if (m["events_dropped"].get<int64_t>() > 0)
    out += fmt::format("note: {} later events were not kept (at most 200000)\n", m["events_dropped"].get<int64_t>());
  if (const nlohmann::json& viz = m["memory_viz"]; viz.is_object())
    out += viz.contains("error") ? fmt::format("memory_viz snapshot {} not written: {}\n", viz.value("path", ""), viz.value("error", ""))
                                 : fmt::format("memory_viz snapshot: {} ({}; open it at pytorch.org/memory_viz)\n", viz.value("path", ""),
                                               viz.value("holds", "") == "allocator" ? "PyTorch's caching allocator on the GPU"
                                                                                       : "the script's tensors");
  if (const nlohmann::json& png = m.value("timeline_png", nlohmann::json()); png.is_object())
    out += png.contains("error") ? fmt::format("timeline {} not drawn: {}\n", png.value("path", ""), png.value("error", ""))
                                 : fmt::format("timeline: {}\n", png.value("path", ""));
  return out;
}

// A script, once per target (each lowers it its own way: CUDA for NVIDIA, the wave-64 stand-in for MetaX),
// with the launch checks only; every launch checked is profiled from its captured bundle while that is on
// disk. Launches are matched across targets by their number.
int profileScript(const ProfileArgs& a, const std::vector<std::string>& targets) {
  if (!a.params.empty()) throw InputError("--param", 0, "a script's launches take their shapes from the script");
  std::map<int, std::vector<std::pair<Run, ProfileReport>>> launches;  // launch number -> per target
  std::vector<std::string> failures;
  ReportSink sink(a.out);
  int worst = 0;
  nlohmann::json memory;  // the first target's run records the timeline
  for (const std::string& target : targets) {
    ScriptCheckRequest req;
    req.check.bundlePath = a.input;
    req.check.target = target;
    req.check.checks = "launch";
    req.scriptArgs = scriptArguments();
    req.stdoutToStderr = a.out.empty() && a.format == "json";
    if (a.timed()) {
      askTiming(a, req.check);
      if (loadProfile(target).vendor == "MetaX") req.check.executor = "cpu";  // its lowering is for MACA, not this GPU
    }
    req.memoryTimeline = target == targets.front();
    if (req.memoryTimeline && !a.memoryViz.empty()) req.memoryVizPath = fs::absolute(a.memoryViz).string();
    // the launch checks instrument nothing: the checked module is the kernel as written, measured once
    std::optional<LaunchProfile> measured;
    std::string ptxArch = ptxArchFor({target});
    req.check.inspectModule = [&](const Bundle& b, KernelModule& km) { measured = profileModule(b, km, ptxArch); };
    req.onChecked = [&](const Run& item, const CheckResult& res) {
      ProfileReport report = measured && measured->bundle == res.bundle.manifestPath
                                 ? buildProfileReport(std::move(*measured), {}, {target})
                                 : buildProfileReport(res.bundle.manifestPath, {}, {target});
      measured.reset();
      if (a.timed() && item.launch) report.timing = timingOf(res);  // a launch refused says why
      launches[item.launch].push_back({item, std::move(report)});
    };
    RunSet set = checkScriptRuns(req);
    if (req.memoryTimeline && set.script) {
      memory = memorySummary(set.script->memory);
      if (nlohmann::json png = drawTimeline(a, set.script->memory, target); !png.is_null() && memory.is_object())
        memory["timeline_png"] = png;
    }
    int code = set.exitCode();
    if (code != 0 && code != 1 && code != kExitScriptFailed) worst = std::max(worst, code);
    if (set.script && set.script->exitCode != 0)
      failures.push_back(fmt::format("on {} the script failed: {} ({})", target, set.script->exitWhy, set.script->exitWhere));
  }
  if (a.format == "json") {
    nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"command", "profile"}, {"script", a.input},
                        {"launches", nlohmann::json::array()}, {"notes", failures}, {"memory", memory}};
    for (const auto& [number, perTarget] : launches)
      for (const auto& [item, report] : perTarget)
        j["launches"].push_back({{"launch", item.launch}, {"entry", item.entry}, {"called_at", item.calledAt},
                                 {"compiled_at", item.compiledAt}, {"profile", profileJson(report)}});
    j["exit_code"] = worst;
    sink.write(j.dump(1) + "\n");
    return worst;
  }
  std::string text;
  for (const auto& [number, perTarget] : launches)
    for (const auto& [item, report] : perTarget)
      text += fmt::format("== {} on {} ==\n", item.launch ? fmt::format("launch {} at {}", item.launch, item.calledAt)
                                                            : fmt::format("kernel {} compiled at {}, never launched", item.entry,
                                                                          item.compiledAt),
                          report.targets.front().target.name) +
              renderProfileText(report) + "\n";
  if (launches.empty()) text += "no launch was profiled (the script launched no kernel)\n";
  text += memoryText(memory, targets.front());
  for (const std::string& f : failures) text += "note: " + f + "\n";
  sink.write(text);
  return worst;
}

// `params`: --param as runWritingStops parsed it (check's own parsing and errors).
int runProfile(const ProfileArgs& a, const std::vector<std::pair<std::string, std::string>>& params) {
  std::vector<std::string> targets = a.targets.empty() ? std::vector<std::string>{kDefaultTarget} : a.targets;
  if (isScript(a.input)) return profileScript(a, targets);
  if (!a.timelinePng.empty() || !a.memoryViz.empty())
    throw InputError(a.input, 0, "--timeline-png and --memory-viz draw a script's memory timeline: give a TileLang script (kernel.py)");
  if (!scriptArguments().empty()) throw InputError(a.input, 0, "arguments after -- are for TileLang scripts (kernel.py) only");
  ReportSink sink(a.out);
  ProfileReport r = buildProfileReport(a.input, params, targets);
  if (a.timed()) {
    CheckRequest req;
    req.bundlePath = a.input;
    req.params = params;
    req.target = targets.front();
    req.checks = "";  // the kernel as written
    askTiming(a, req);
    r.timing = timingOf(runCheck(req));
  }
  sink.write(a.format == "json" ? profileJson(r).dump(1) + "\n" : renderProfileText(r));
  return 0;
}

}  // namespace

std::function<int()> addProfileCommand(CLI::App& app) {
  auto a = std::make_shared<ProfileArgs>();
  CLI::App* sub = app.add_subcommand("profile", "a launch's resources (global, shared, private memory, registers) and its "
                                                "occupancy on each target, with the limiting resource");
  sub->add_option("bundle", a->input, "the bundle manifest, or a TileLang script (every launch profiled; its own "
                                      "arguments follow --)")->required();
  sub->add_option("--target", a->targets, "a target profile, repeatable: side by side (default nvidia-h200)")
      ->allow_extra_args(false);
  sub->add_option("--param", a->params, "override a parameter: NAME=VALUE (repeatable)")->allow_extra_args(false);
  sub->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  sub->add_option("--out", a->out, "write the report to FILE");
  sub->add_option("--executor", a->executor, "run the launch, unchecked: cuda times it on the GPU (with --timing-launches, "
                                             "--stability), cpu reports the simulated work; auto: cuda where there is a GPU")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  sub->add_option("--timing-launches", a->timingLaunches, "timed launches on the GPU (default 200)")->check(CLI::NonNegativeNumber);
  sub->add_option("--stability", a->stability, "keep timing for at least SECONDS (drift, clocks)")->check(CLI::NonNegativeNumber);
  sub->add_option("--timeout", a->timeout, "seconds one launch may run")->check(CLI::PositiveNumber);
  sub->add_option("--timeline-png", a->timelinePng, "a script: draw its memory timeline into FILE (PNG)");
  sub->add_option("--memory-viz", a->memoryViz, "a script: write its memory timeline as a snapshot PyTorch's memory_viz "
                                                "opens (pickle; on a GPU, the caching allocator's own history)");
  return [a] {
    CheckArgs stops;  // bad input and the like end as check's do
    stops.format = a->format;
    stops.out = a->out;
    stops.params = a->params;
    return runWritingStops(stops, [&] { return runProfile(*a, stops.req.params); });
  };
}

}  // namespace td::cli
