// `tile-doctor bisect-shape INPUT --axis NAME=LO:HI ...`: the shape at which a kernel starts to fail
// (bisect/search.h), each probe a `check` of its own process (bisect/process_prober.h).
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <thread>
#include <unistd.h>

#include "model/family.h"
#include "bisect/bisect_report.h"
#include "bisect/input_identity.h"
#include "bisect/probe_outcome.h"
#include "bisect/process_prober.h"
#include "bisect/repro.h"
#include "cli/commands.h"
#include "cli/script_check.h"
#include "frontend/input_error.h"
#include "frontend/profile.h"
#include "runtime/host_memory.h"

namespace td::cli {

namespace {

using namespace td::bisect;

struct BisectArgs {
  std::shared_ptr<CheckArgs> check = std::make_shared<CheckArgs>();
  std::vector<std::string> axes;
  int64_t align = 1;
  std::string failOn = "any", cache, repro;
  int confirm = 1, maxProbes = 0;
  bool scanResidues = false, noCache = false;
};

// bisect-shape's own options, and check's that it takes over (--format, --out, --jobs: probes at once):
// not passed to the probes.
const std::vector<std::string>& ownOptions() {
  static const std::vector<std::string> o = {"--axis", "--align", "--fail-on", "--confirm", "--scan-residues", "--cache",
                                             "--no-cache", "--repro", "--max-probes", "--format", "--out", "--jobs"};
  return o;
}

// The check options as the user wrote them after `bisect-shape`, for every probe's check: CLI11 has
// validated them already; this only drops bisect-shape's own and the input.
std::vector<std::string> probeOptions(const std::vector<std::string>& argv, CLI::App* sub) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < argv.size() && argv[i] != sub->get_name()) ++i;
  for (++i; i < argv.size() && argv[i] != "--"; ++i) {
    const std::string& t = argv[i];
    if (t.rfind("--", 0) != 0) continue;  // the input
    size_t eq = t.find('=');
    std::string name = t.substr(0, eq);
    const CLI::Option* opt = sub->get_option_no_throw(name);
    bool takesValue = opt && opt->get_items_expected_max() > 0 && eq == std::string::npos;
    bool own = std::find(ownOptions().begin(), ownOptions().end(), name) != ownOptions().end();
    for (const char* refused : {"--save-outputs", "--save-inputs", "--keep"})
      if (name == refused)
        throw InputError(name, 0, "is not for bisect-shape: every probe would write there (check the repro instead)");
    if (!own) out.push_back(t);
    if (takesValue && i + 1 < argv.size()) {
      if (!own) out.push_back(argv[i + 1]);
      ++i;
    }
  }
  return out;
}

void validate(const BisectArgs& a, const std::vector<Axis>& axes, bool script) {
  const std::string& input = a.check->req.bundlePath;
  if (!std::filesystem::is_regular_file(input)) throw InputError(input, 0, "no such bundle or script");
  if (a.check->format != "text" && a.check->format != "json")
    throw InputError("--format", 0, fmt::format("bisect-shape reports are text or json, not {}", a.check->format));
  if (a.confirm < 1 || a.confirm > 100) throw InputError("--confirm", 0, "takes 1 to 100 runs a probe");
  for (size_t i = 0; i < axes.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (axes[i].name == axes[j].name) throw InputError("--axis", 0, fmt::format("{} is given twice", axes[i].name));
  for (const std::string& p : a.check->params)
    for (const Axis& ax : axes)
      if (p.rfind(ax.name + "=", 0) == 0)
        throw InputError("--param", 0, fmt::format("'{}' sets the axis {} that --axis searches", p, ax.name));
  if (!script) {
    if (!a.check->scriptArgs.empty())
      throw InputError(input, 0, "arguments after the bundle are for TileLang scripts (kernel.py) only");
    return;
  }
  for (const Axis& ax : axes) {
    bool used = false;
    for (const std::string& s : a.check->scriptArgs) used = used || s.find("{" + ax.name + "}") != std::string::npos;
    if (!used)
      throw InputError("--axis", 0, fmt::format("the script's arguments (after --) never name {{{}}}: a script takes its "
                                                "shape from its arguments, e.g. -- --m {{{}}}", ax.name, ax.name));
  }
}

// A terminal line that says where the search is; nothing when standard error is not a terminal.
class Progress {
 public:
  Progress() : on_(isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()) {}
  ~Progress() {
    if (on_ && shown_) std::cerr << "\r\033[K" << std::flush;
  }
  void probe(const std::string& shape, const ProbeOutcome* done) {
    if (!done) ++started_;
    show(fmt::format("probe {} {} {}", started_, shape, done ? (done->verdict == Verdict::Fail ? "fails" : done->verdict == Verdict::Pass ? "passes" : "error") : "..."));
  }
  void interval(const std::string& text) { interval_ = text; }

 private:
  void show(const std::string& what) {
    if (!on_) return;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::cerr << fmt::format("\r\033[K[bisect-shape] {}{}  {:.1f} s", what, interval_.empty() ? "" : "  " + interval_, s)
              << std::flush;
    shown_ = true;
  }
  bool on_, shown_ = false;
  std::chrono::steady_clock::time_point start_;
  int started_ = 0;
  std::string interval_;
};

// The user's --param (parsed by runWritingStops) and the axes at the shape.
std::vector<std::pair<std::string, std::string>> paramsAt(const BisectArgs& a, const std::vector<Axis>& axes, const Shape& s) {
  std::vector<std::pair<std::string, std::string>> out = a.check->req.params;
  for (size_t i = 0; i < axes.size(); ++i) out.push_back({axes[i].name, std::to_string(s[i])});
  return out;
}

LaunchFacts factsOf(const BisectArgs& a, const std::vector<Axis>& axes, const ProbeRecord& p, int launchIndex) {
  if (!isScript(a.check->req.bundlePath)) return bundleFacts(a.check->req.bundlePath, paramsAt(a, axes, p.shape), p.outcome.report);
  const nlohmann::json& r = p.outcome.report;
  if (launchIndex < 0 || !r.is_object() || !r.contains("launches") || r["launches"].size() <= size_t(launchIndex)) return {};
  return scriptLaunchFacts(r["launches"][launchIndex]);
}

// What one probe takes besides its buffers: clang, the JIT and the executor's state (a check of a small
// kernel, examples/gemm, peaks near 180 MB in the tool itself, more with its clang and executor children).
constexpr uint64_t kProbeOverheadBytes = 512ull << 20;

int runBisect(BisectArgs& a, const std::vector<std::string>& argv, CLI::App* sub) {
  auto started = std::chrono::steady_clock::now();
  CheckArgs& c = *a.check;
  bool script = isScript(c.req.bundlePath);
  std::vector<Axis> axes;
  for (const std::string& t : a.axes) axes.push_back(parseAxis(t, a.align));
  validate(a, axes, script);
  if (c.req.target.empty()) c.req.target = kDefaultTarget;
  loadProfile(c.req.target);  // a bad --target is bad input before any probe

  ProbeSetup setup;
  setup.tool = std::filesystem::read_symlink("/proc/self/exe").string();
  setup.input = c.req.bundlePath;
  setup.script = script;
  setup.checkOptions = probeOptions(argv, sub);
  setup.scriptArgs = c.scriptArgs;
  setup.axes = axes;
  setup.failOn = FailCondition::parse(a.failOn);
  setup.confirm = a.confirm;
  setup.maxProbes = a.maxProbes;
  BisectReport report;
  int jobs = static_cast<int>(c.req.launch.jobs);
  if (jobs > 1 && c.req.executor != "cpu") {
    report.notes.push_back(fmt::format("probes run one at a time on the {} executor (--jobs {} is for the CPU executor)",
                                       c.req.executor, jobs));
    jobs = 1;
  }
  // Each probe is a whole check (its own compile and executor): more at once than cores only queues them.
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (jobs > cores) {
    report.notes.push_back(fmt::format("--jobs {} runs {} probes at once, one a core", jobs, cores));
    jobs = cores;
  }
  // ...and each holds its buffers (twice: the run's and the initial copy) besides its compile: more at once
  // than memory holds at the axes' largest shape would have the OOM killer end probes (or the machine).
  if (jobs > 1 && !script) {
    uint64_t perProbe = kProbeOverheadBytes;
    try {
      std::vector<std::pair<std::string, std::string>> largest = c.req.params;
      for (const Axis& x : axes) largest.push_back({x.name, std::to_string(x.hi)});
      for (const ArgSpec& arg : loadBundle(c.req.bundlePath, largest).args)
        if (arg.isBuffer) perProbe += 2 * arg.byteSize();
    } catch (const std::exception&) {
      // the largest shape may not even load (what the search is to find): the overhead alone then
    }
    std::string source;
    uint64_t available = availableMemory(source);
    int fit = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(available / perProbe, 1u << 20)));
    if (jobs > fit) {
      report.notes.push_back(fmt::format("--jobs {} runs {} probes at once: each may hold {:.1f} GiB at the largest "
                                         "shape, and {} leaves {:.1f} GiB", jobs, fit, perProbe / 1073741824.0, source,
                                         available / 1073741824.0));
      jobs = fit;
    }
  }
  setup.parallel = std::max(1, jobs);
  if (setup.parallel > 1)
    setup.workerThreads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / setup.parallel);
  double t = c.req.launch.timeoutSeconds;
  setup.watchdogSeconds = (t + std::max(t, 120.0) + 60) * (script ? 4 : 1);

  ReportSink sink(c.out);
  std::string cachePath = a.noCache ? "" : !a.cache.empty() ? a.cache : defaultProbeCachePath();
  ProbeCache cache(cachePath);
  ProcessProber prober(setup, cache, inputIdentity(c.req.bundlePath));
  Progress progress;
  prober.onProgress = [&](const Shape& s, const ProbeOutcome* o) { progress.probe(shapeText(axes, s), o); };
  SearchOptions opts;
  opts.scanResidues = a.scanResidues;
  opts.onInterval = [&](const std::string& text) { progress.interval(text); };
  report.result = search(axes, prober, opts);

  report.input = c.req.bundlePath;
  report.script = script;
  report.target = c.req.target;
  report.executor = c.req.executor;
  report.failOn = setup.failOn.text();
  report.confirm = a.confirm;
  report.parallel = setup.parallel;
  report.axes = axes;
  report.cache = cachePath;
  report.probesRun = prober.ran();
  report.cacheWritesLost = prober.cacheWritesLost();
  for (const ProbeRecord& p : report.result.probes) {
    report.commands.push_back(prober.command(p.shape, ""));
    if (p.outcome.cached) ++report.probesCached;
  }
  const SearchResult& s = report.result;
  if (s.failing && s.passing) {
    const ProbeRecord* f = s.record(*s.failing);
    const ProbeRecord* p = s.record(*s.passing);
    if (f && p) {
      std::vector<std::tuple<std::string, int64_t, int64_t>> values;
      for (size_t i = 0; i < axes.size(); ++i) values.push_back({axes[i].name, (*s.passing)[i], (*s.failing)[i]});
      int index = f->outcome.launchIndex;
      report.changes = whatChanged(factsOf(a, axes, *p, index), factsOf(a, axes, *f, index), values);
    }
  }
  if (s.failing) {
    report.repro = a.repro.empty() ? reproPath(c.out, script) : a.repro;
    std::string options;
    for (const std::string& o : setup.checkOptions)
      if (o.rfind("--param", 0) != 0) options += " " + o;
    if (script) {
      std::vector<std::string> cmd = prober.command(*s.failing, "");
      cmd.erase(std::remove(cmd.begin(), cmd.end(), std::string("--format=json")), cmd.end());
      writeScriptRepro(cmd, report.repro);
      report.reproCommand = "sh " + report.repro;
    } else {
      writeBundleRepro(c.req.bundlePath, paramsAt(a, axes, *s.failing), report.repro,
                       fmt::format("tile-doctor bisect-shape: {} fails at {}", c.req.bundlePath, shapeText(axes, *s.failing)));
      // the repro sits beside the report and names the bundle's files: their folder is one it may read
      report.reproCommand = fmt::format("tile-doctor check {} --include-root {}{}", report.repro,
                                        std::filesystem::absolute(c.req.bundlePath).parent_path().string(), options);
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  sink.write(c.format == "json" ? bisectJson(report).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"
                                : renderBisectText(report, sink.colour()));
  return report.exitCode();
}

}  // namespace

std::function<int()> addBisectCommand(CLI::App& app, std::vector<std::string> argv) {
  auto args = std::make_shared<BisectArgs>();
  CLI::App* sub = app.add_subcommand("bisect-shape", "find the shape at which a kernel starts to fail: every probe a check "
                                                     "of its own process, the threshold with what changed across it");
  sub->add_option("bundle", args->check->req.bundlePath, "the bundle manifest (bundle.toml) or a TileLang script (kernel.py)")
      ->required();
  sub->add_option("--axis", args->axes, "NAME=LO:HI[:ALIGN]: a parameter (bundle) or {NAME} in the script's arguments, "
                                        "searched from LO to HI (repeatable)")
      ->required()->allow_extra_args(false);
  sub->add_option("--align", args->align, "probe only multiples of N (default 1; an axis's :ALIGN overrides)");
  sub->add_option("--fail-on", args->failOn, "what counts as failing: any (default), crash, hang, limit, " +
                                             familyNames() + " or rule ids, comma-separated");
  sub->add_option("--confirm", args->confirm, "run every probe N times: a failure in any run fails it; flaky probes are named");
  sub->add_flag("--scan-residues", args->scanResidues,
                "probe 16 consecutive aligned values at the threshold (or the lowest value) and report a period "
                "(fails only where N mod 16 is 8)");
  sub->add_option("--cache", args->cache, "the probe cache (SQLite; default bisect-probes.sqlite in tile-doctor's cache folder)");
  sub->add_flag("--no-cache", args->noCache, "neither read nor keep probe outcomes");
  sub->add_option("--repro", args->repro, "where the repro goes (default: beside --out, or bisect.repro.toml / .sh here)");
  sub->add_option("--max-probes", args->maxProbes, "stop after N probes run now (exit 7); the same command resumes from the cache");
  addCheckOptions(sub, args->check);
  return [args, argv, sub] { return runWritingStops(*args->check, [&] { return runBisect(*args, argv, sub); }); };
}

}  // namespace td::cli
