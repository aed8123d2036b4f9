#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "model/family.h"
#include "cli/commands.h"
#include "cli/input_list.h"
#include "history/run_db.h"
#include "sanitizer/baseline.h"
#include "sanitizer/suppressions.h"
#include "cli/script_check.h"
#include "cli/stop_of.h"
#include "driver/check.h"
#include "driver/launch_policy.h"
#include "driver/outputs.h"
#include "driver/wrapper_run.h"
#include "frontend/compiler.h"
#include "frontend/input_error.h"
#include "frontend/lifetime.h"
#include "frontend/profile.h"
#include "frontend/read_roots.h"
#include "frontend/staged_file.h"
#include "frontend/work_deadline.h"
#include "instrument/pipeline.h"
#include "runtime/executor_limit.h"
#include "sanitizer/reporters.h"

namespace td::cli {

namespace {

constexpr double kLongestTimeoutSeconds = 1e6;

std::vector<std::pair<std::string, std::string>> namedValues(const std::vector<std::string>& items, const char* option) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& p : items) {
    size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError(option, 0, fmt::format("'{}' is not NAME=VALUE", p));
    out.push_back({p.substr(0, eq), p.substr(eq + 1)});
  }
  return out;
}

void parseParams(CheckArgs& args) {
  for (auto& p : namedValues(args.params, "--param")) args.req.params.push_back(std::move(p));
}

WrapperCheckRequest wrapperRequest(const CheckArgs& args) {
  WrapperCheckRequest req;
  req.check = args.req;
  req.shapes = namedValues(args.shapes, "--shape");
  req.inits = namedValues(args.inits, "--init");
  req.templatesDir = args.macaTemplates;
  if (!args.macaTemplates.empty()) addIncludeRoot(args.macaTemplates);  // its templates are the kernels' headers
  req.keep = args.keep;
  req.saveOutputs = args.saveOutputs;
  return req;
}

// One input's runs. `outputs` keeps a bundle's result for --save-outputs, written after the report.
RunSet runInput(CheckArgs& args, const std::string& input, std::optional<CheckResult>* outputs) {
  args.req.bundlePath = input;
  if (isScript(input) || !args.channel.empty()) return checkScriptRuns(scriptRequest(args));
  if (isWrapperSource(input)) return checkWrapperRuns(wrapperRequest(args));
  if (!args.scriptArgs.empty())
    throw InputError(input, 0, "arguments after the bundle are for TileLang scripts (kernel.py) only");
  if (!args.shapes.empty() || !args.inits.empty())
    throw InputError(input, 0, "--shape and --init are for generated sources (kernel.maca with its call()); a bundle "
                               "states its shapes and initialisers");
  CheckResult res = runCheck(args.req);
  RunSet set;
  Run& run = set.runs.emplace_back();
  run.entry = res.bundle.entry;
  run.bundle = input;
  run.report = res.report;
  if (outputs) *outputs = std::move(res);
  return set;
}

// An input that stopped, among many: its error in place of its runs, so the others still run and report.
RunSet stoppedInput(const std::string& input, int code, const std::string& where, const std::string& what) {
  RunSet set;
  Run& run = set.runs.emplace_back();
  run.bundle = input;
  run.errorCode = code;
  run.errorWhere = where;
  run.error = what;
  return set;
}

Baseline baselineOf(const CheckArgs& args) {
  if (args.baseline != "last" && args.baseline.find_first_not_of("0123456789") != std::string::npos)
    return loadBaselineFile(args.baseline);
  if (args.db.empty()) throw InputError("--baseline", 0, fmt::format("'{}' names a run of the history: give --db FILE", args.baseline));
  RunDb db(args.db);
  int64_t id = args.baseline == "last" ? db.latest() : std::stoll(args.baseline);
  Baseline b;
  if (id == 0) {  // a history's first run: nothing is known yet, every finding is new
    b.source = fmt::format("{} (no earlier run: every finding is new)", args.db);
    return b;
  }
  db.run(id);  // InputError when there is no such run
  b.source = fmt::format("run {} of {}", id, args.db);
  for (const FindingRow& f : db.findings(id)) b.findings.push_back({f.id, f.kind, f.message, f.place});
  return b;
}

}  // namespace

std::string commandLine(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

namespace {

// One --report FORMAT:FILE: opened before anything runs, as --out is, so a bad path costs no run.
struct ExtraReport {
  std::string format;
  std::unique_ptr<ReportSink> sink;
};

std::vector<ExtraReport> openExtraReports(const std::vector<std::string>& specs) {
  std::vector<ExtraReport> reports;
  for (const std::string& spec : specs) {
    size_t colon = spec.find(':');
    std::string format = spec.substr(0, colon == std::string::npos ? 0 : colon);
    const auto& formats = reportFormats();
    if (colon == std::string::npos || colon + 1 == spec.size() ||
        std::find(formats.begin(), formats.end(), format) == formats.end())
      throw InputError("--report", 0, fmt::format("'{}' is not FORMAT:FILE with FORMAT one of {}", spec,
                                                  fmt::join(formats, ", ")));
    reports.push_back({format, std::make_unique<ReportSink>(spec.substr(colon + 1))});
  }
  return reports;
}

}  // namespace

int checkInputs(CheckArgs& args, const std::string& command) {
  auto started = std::chrono::steady_clock::now();
  // A served channel's "input" is the Python process's script name, not a file to look for.
  std::vector<std::string> inputs = args.channel.empty() ? expandInputs(args.inputs) : args.inputs;
  CiOutcome ci;
  if (!args.shard.empty()) {
    inputs = shardOf(inputs, args.shard, &ci.shardSkipped);
    ci.shard = args.shard;
  }
  bool many = inputs.size() != 1 || !args.shard.empty();
  if (many) {
    for (const auto& [option, value] : {std::pair<const char*, const std::string*>{"--save-outputs", &args.saveOutputs},
                                        {"--save-inputs", &args.req.saveInputs}, {"--keep", &args.keep}})
      if (!value->empty()) throw InputError(option, 0, "takes one input (each input would write there)");
    if (!args.scriptArgs.empty()) throw InputError("--", 0, "arguments after -- take one script, not several inputs");
  }
  // Everything that can be bad input is read before anything runs.
  std::optional<Suppressions> suppressions;
  if (!args.suppressions.empty()) suppressions = Suppressions::load(args.suppressions);
  std::optional<Baseline> baseline;
  if (!args.baseline.empty()) baseline = baselineOf(args);
  std::optional<RunDb> db;
  if (!args.db.empty()) db.emplace(args.db).requireWritable();
  ReportSink sink(args);
  std::vector<ExtraReport> extraReports = openExtraReports(args.reports);
  std::vector<RunSet> sets;
  std::optional<CheckResult> outputs;
  for (const std::string& input : inputs) {
    if (!many) {
      sets.push_back(runInput(args, input, &outputs));
      continue;
    }
    try {
      sets.push_back(runInput(args, input, nullptr));
    } catch (...) {  // one input's stop, an internal error included, is its outcome: the others still run
      if (terminating()) throw;
      Stop stop = stopOfCurrentException(input);
      sets.push_back(stoppedInput(input, stop.code, stop.where, stop.message));
    }
  }
  if (suppressions) {
    suppressions->apply(sets);
    ci.suppressing = true;
    for (const Suppression& s : suppressions->entries()) ci.suppressions.push_back({s.file, s.line, s.rule, s.pattern, s.matched});
  }
  if (baseline) applyBaseline(*baseline, sets, ci);
  int code = exitCodeOf(sets);
  // The history is written before the report (a report read as final is in it), but a history that cannot
  // be written does not lose the report: it is written, then the error is.
  std::exception_ptr unrecorded;
  if (db) {
    RunRecord rec{command, args.req.target.empty() ? kDefaultTarget : args.req.target, args.req.executor, args.lowering,
                  args.shard, args.params,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
    try {
      db->record(rec, sets, code);
    } catch (const InputError&) {
      unrecorded = std::current_exception();
    }
  }
  sink.write(makeReporter(args.format, sink.colour())->renderAll(sets, ci));
  for (ExtraReport& extra : extraReports) extra.sink->write(makeReporter(extra.format, false)->renderAll(sets, ci));
  if (unrecorded) std::rethrow_exception(unrecorded);
  if (outputs) saveOutputs(*outputs, args.saveOutputs);
  return code;
}

namespace {

// Set once a run's report is written: a later stop (the history, --save-outputs) is said on stderr and in
// the exit code, and never replaces the report with a stop object.
bool gReportWritten = false;

}  // namespace

bool CheckArgs::reportOwnsStdout() const {
  std::unique_ptr<Reporter> reporter = makeReporter(format, false);
  return out.empty() && reporter && reporter->machineReadable();
}

ReportSink::ReportSink(const CheckArgs& args) : ReportSink(args.out) {
  makeOutputFolder(args.saveOutputs, "--save-outputs");
  makeOutputFolder(args.req.saveInputs, "--save-inputs");
}

ReportSink::ReportSink(const std::string& path) : path_(path) {
  if (path_.empty()) return;
  // A regular file is staged and renamed into place (frontend/staged_file.h); devices and pipes take it directly.
  std::error_code ec;
  auto st = std::filesystem::status(path_, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    direct_.open(path_);
    if (!direct_) throw InputError(path_, 0, "cannot write the report");
  } else {
    staged_.emplace(path_, "the report");
  }
}

ReportSink::~ReportSink() = default;  // a report never written leaves the old --out as it was

bool ReportSink::colour() const { return path_.empty() && isatty(STDOUT_FILENO); }

void ReportSink::write(const std::string& text) {
  // A run a signal is ending reports on children it killed itself: the last complete report stays.
  if (terminating()) return;
  if (path_.empty()) {
    std::cout << text << std::flush;
    if (!std::cout) throw InputError("standard output", 0, "cannot write the report (use --out FILE)");
    return;
  }
  if (staged_) {
    staged_->out() << text;
    staged_->commit();
  } else {
    direct_ << text << std::flush;
    direct_.close();
    if (direct_.fail()) throw InputError(path_, 0, "cannot write the report: " + std::string(std::strerror(errno)));
  }
  gReportWritten = true;
}

// With --format json a run that stops still writes JSON: the error (kind, file, line, message) and the
// exit code, where the report would have gone. Best effort: it never hides the error it describes.
void writeStopReport(const std::string& format, const std::string& out, int exitCode, const char* kind,
                    const std::string& file, int line, const std::string& message) {
  if (terminating() || gReportWritten) return;  // the last complete report stays as it is
  try {
    std::unique_ptr<Reporter> reporter = makeReporter(format, false);
    std::string text = reporter ? reporter->renderStop(exitCode, kind, file, line, message) : "";
    if (!text.empty()) ReportSink(out).write(text);
  } catch (const std::exception&) {
  }
}

static void writeStopReport(const CheckArgs& args, int exitCode, const char* kind, const std::string& file, int line,
                           const std::string& message) {
  writeStopReport(args.format, args.out, exitCode, kind, file, line, message);
}

void addReportOption(CLI::App* sub, const std::shared_ptr<CheckArgs>& args) {
  sub->add_option("--report", args->reports,
                  "FORMAT:FILE: also write the report in FORMAT (text, json, sarif, junit) to FILE (repeatable)")
      ->allow_extra_args(false);
}

void addCheckOptions(CLI::App* sub, const std::shared_ptr<CheckArgs>& args) {
  sub->add_option("--param", args->params, "override a parameter: NAME=VALUE (repeatable)")->allow_extra_args(false);
  sub->add_option("--target", args->req.target, fmt::format("target profile (default {}; see `tile-doctor targets`)",
                                                            kDefaultTarget));
  sub->add_option("--checks", args->req.checks, "check families, comma-separated: " + familyNames() + ", or all (default all)")
      ->check([](const std::string& v) -> std::string {
        // No family would run no check and still say "no findings": the silence a CI gate must not give.
        if (v.find_first_not_of(", ") == std::string::npos)
          return "'" + v + "' names no check family (use all, or a list such as bounds,race)";
        return "";
      });
  for (const Family& family : td::families())  // each family's settings, as it describes them
    for (const FamilyOption& o : family.options) {
      if (o.internal) continue;
      std::string name = o.name, help = family.name + ": " + o.help;
      if (o.isSwitch)
        sub->add_flag_callback("--" + name, [args, name] { args->req.settings[name] = "on"; }, help);
      else
        sub->add_option_function<std::string>(
            "--" + name, [args, name](const std::string& v) { args->req.settings[name] = v; }, help);
    }
  sub->add_option("--format", args->format, "report format: text, json, sarif (SARIF 2.1.0) or junit (JUnit XML); diff: text or json")->check(CLI::IsMember(reportFormats()));
  sub->add_option("--out", args->out, "write the report to FILE instead of standard output");
  sub->add_option("--seed", args->req.seed, "seed for random buffer initialisers (default 0)");
  sub->add_option("--jobs", args->req.launch.jobs, "worker threads for the CPU executor (default: all cores)");
  sub->add_option("--timeout", args->req.launch.timeoutSeconds, "seconds before a running kernel counts as hung (default 60)")
      ->check([](const std::string& v) -> std::string {
        char* end = nullptr;
        double t = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end != '\0' || !std::isfinite(t) || t <= 0)
          return "--timeout must be a positive number of seconds, not '" + v + "'";
        // Deadlines are clock arithmetic: a bound far past any run keeps them from overflowing into the past.
        if (t > kLongestTimeoutSeconds)
          return fmt::format("--timeout {} is over {} s (11.6 days), the longest tile-doctor waits", v, kLongestTimeoutSeconds);
        return "";
      });
  sub->add_option("--save-outputs", args->saveOutputs, "write every output buffer to DIR/NAME.npy");
  sub->add_option("--save-inputs", args->req.saveInputs, "write every buffer as initialised, before the run, to DIR/NAME.npy");
  sub->add_option("--executor", args->req.executor,
                  "cpu (default), cuda (the GPU, through the CUDA driver), or auto (cuda when a GPU is usable)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  sub->add_option("--blocks", args->req.blocks,
                  "CPU executor: all (default), sample:N (every boundary block and N more drawn under --seed), or a "
                  "list of blocks as linear indices or x.y.z");
  sub->add_option("--device", args->req.launch.device, "CUDA device ordinal for --executor cuda (default 0)");
  sub->add_option("--timing-launches", args->req.launch.timingLaunches,
                  "CUDA executor: time N more launches with CUDA events; the median goes to the JSON timing");
  sub->add_option("--channel-capacity", args->req.launch.channelCapacity,
                  "records the hook channel holds (default 4096, at most 16777216); more are counted, not kept")
      ->check(CLI::Range(1u, 1u << 24));
  sub->add_option("--schedule", args->schedule,
                  "CPU executor: the order a block's threads run in: forward (default), reverse, random:SEED");
  sub->add_option("--repeat", args->req.repeat,
                  "run N times (CPU: under N schedules) and report output elements that differ between runs")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--keep", args->keep, "TileLang scripts: keep the captured bundles in DIR (one folder per kernel)");
  sub->add_option("--launches", args->launches,
                  "TileLang scripts: which launches are checked: first (default: each kernel with new shapes or "
                  "scalars), all, or N (the script's first N launches); the others run unchecked");
  sub->add_option("--autotune", args->autotune,
                  "TileLang scripts: @tilelang.autotune without timing takes the first configuration (first, the "
                  "default) or compiles and checks every one (all)")
      ->check(CLI::IsMember({"first", "all"}));
  sub->add_option("--tilelang-arch", args->tilelangArch,
                  "TileLang scripts: the CUDA architecture TileLang lowers for (default sm_80, its non-Hopper forms)");
  sub->add_option("--lowering", args->lowering,
                  "TileLang scripts: how TileLang lowers the kernels: cuda, hip (HIP for a wave-64 GPU: the stand-in "
                  "for MetaX's MACA lowering), maca (needs tilelang-metax), or auto (the default: by the target's "
                  "warp size)")
      ->check(CLI::IsMember({"auto", "cuda", "hip", "maca"}));
  sub->add_option("--shape", args->shapes,
                  "generated sources (kernel.maca with its call()): a buffer's shape, NAME=D0,D1,... (numbers or "
                  "expressions of --param names; repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--init", args->inits,
                  "generated sources: a buffer's initialiser, NAME=SPEC (zeros, arange, uniform(A, B), file(\"a.npy\"), "
                  "...; default uniform(-1, 1) for floats, zeros for integers)")
      ->allow_extra_args(false);
  sub->add_option_function<std::vector<std::string>>(
      "--include-root", [](const std::vector<std::string>& dirs) { for (const std::string& d : dirs) addIncludeRoot(d); },
      "a folder outside the bundle's own that its sources and include folders may lie in (repeatable; "
      "docs/security.md)");
  sub->add_option("--maca-templates", args->macaTemplates,
                  "generated sources: the folder holding tl_templates/ (tilelang-metax's src/) when the installed "
                  "TileLang does not have them");
}

std::function<int()> addCheckCommand(CLI::App& app, int argc, char** argv) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* sub = app.add_subcommand("check", "run kernel bundles, or the kernels TileLang scripts compile, under "
                                              "the checks and report what they find (a script's own arguments "
                                              "follow --)");
  sub->add_option("inputs", args->inputs,
                  "bundle manifests (bundle.toml), TileLang scripts (kernel.py), folders (every bundle under them) or "
                  "patterns (kernels/**/*.toml); several give one report, one summary and one exit code")
      ->required();
  addCheckOptions(sub, args);
  sub->add_option("--suppressions", args->suppressions,
                  "findings to suppress, one RULE:PATTERN a line (docs/ci.md); unused ones are reported");
  sub->add_option("--baseline", args->baseline,
                  "fail only on new findings: a JSON or SARIF report of an earlier check, last (the latest run of --db) "
                  "or a run id of --db");
  sub->add_option("--db", args->db, "record the run in this SQLite history (tile-doctor history reads it)");
  addReportOption(sub, args);
  sub->add_option("--shard", args->shard, "I/N: check every N-th input from the I-th on (a CI matrix or job array)");
  std::string command = commandLine(argc, argv);
  return [args, command] { return runWritingStops(*args, [&] { return checkInputs(*args, command); }); };
}

namespace {
std::vector<std::string> gScriptArguments;
}  // namespace

void setScriptArguments(std::vector<std::string> args) { gScriptArguments = std::move(args); }
const std::vector<std::string>& scriptArguments() { return gScriptArguments; }

int runWritingStops(CheckArgs& args, const std::function<int()>& work) {
  args.scriptArgs = gScriptArguments;
  try {
    parseParams(args);
    setCompileTimeLimit(std::max(args.req.launch.timeoutSeconds, 120.0));
    if (args.reportOwnsStdout()) args.req.launch.devicePrintFd = 2;
    args.req.launch.showProgress = args.format == "text" && isatty(STDERR_FILENO);
    parseSchedule(args.schedule, args.req.launch);
    LaunchPolicy::parse(args.launches);  // a bad --launches is bad input whatever is checked
    return work();
  } catch (...) {
    Stop stop = stopOfCurrentException(args.req.bundlePath);
    writeStopReport(args, stop.code, stop.kind.c_str(), stop.file, stop.line, stop.message);
    throw;
  }
}

}  // namespace td::cli
