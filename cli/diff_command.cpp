// `tile-doctor diff BUNDLE --against REF`: the precision diff (diff/diff_run.h).
#include <fmt/format.h>
#include <memory>

#include "cli/commands.h"
#include "cli/script_check.h"
#include "diff/diff_render.h"
#include "driver/outputs.h"
#include "frontend/input_error.h"

namespace td::cli {

namespace {

struct DiffArgs {
  std::shared_ptr<CheckArgs> check = std::make_shared<CheckArgs>();
  DiffRequest req;
  double rtol = -1, atol = -1;
};

// A TileLang script: every checked launch against its reference (diff/script_diff.h).
int diffScript(DiffArgs& a, ReportSink& sink) {
  ScriptDiffRequest req;
  req.script = scriptRequest(*a.check);
  req.diff = a.req;
  ScriptDiffReport report = runScriptDiff(req);
  sink.write(a.check->format == "json" ? scriptDiffJson(report).dump(2) + "\n" : renderScriptDiffText(report));
  return report.exitCode();
}

int diffBundle(DiffArgs& a) {
  if (a.check->format != "text" && a.check->format != "json")
    throw InputError("--format", 0, fmt::format("diff reports are text or json, not {}", a.check->format));
  if (a.rtol >= 0) a.req.overrides.rtol = a.rtol;
  if (a.atol >= 0) a.req.overrides.atol = a.atol;
  a.req.check = a.check->req;
  ReportSink sink(*a.check);
  if (isScript(a.check->req.bundlePath)) return diffScript(a, sink);
  if (!a.check->scriptArgs.empty())
    throw InputError(a.check->req.bundlePath, 0, "arguments after the bundle are for TileLang scripts (kernel.py) only");
  DiffReport report = runDiff(a.req);
  sink.write(a.check->format == "json" ? diffJson(report).dump(2) + "\n" : renderDiffText(report));
  return report.exitCode();
}

}  // namespace

std::function<int()> addDiffCommand(CLI::App& app) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* sub = app.add_subcommand("diff", "compare a kernel's outputs with a reference (fp64, saved outputs, another target "
                                             "or executor) and judge them by PyTorch's, TileLang's or dynamo's rule");
  sub->add_option("bundle", args->check->req.bundlePath, "the bundle manifest (bundle.toml) or a TileLang script (kernel.py)")
      ->required();
  sub->add_option("--against", args->req.against,
                  "the reference: fp64 (the numerics shadows), an executor (cpu, cuda), a target (tile-doctor targets) "
                  "the same bundle or script runs for, a .npy file or a folder of NAME.npy (one per output; for a "
                  "script, a folder per launch as check --save-outputs writes)")
      ->required();
  sub->add_option("--rule", args->req.rule, "the verdict that sets the exit code: torch (default), tilelang or dynamo")
      ->check(CLI::IsMember({"torch", "tilelang", "dynamo"}));
  sub->add_option("--rtol", args->rtol, "relative tolerance replacing the rule's own")->check(CLI::NonNegativeNumber);
  sub->add_option("--atol", args->atol, "absolute tolerance replacing the rule's own")->check(CLI::NonNegativeNumber);
  sub->add_option("--images", args->req.images, "write a PNG heat map of each output's errors to DIR/NAME.png");
  sub->add_option("--worst", args->req.worst, "worst elements listed per output (default 8)")->check(CLI::Range(0, 1000));
  addCheckOptions(sub, args->check);
  return [args] { return runWritingStops(*args->check, [&] { return diffBundle(*args); }); };
}

}  // namespace td::cli
