#include "cli/script_check.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "driver/script_capture.h"
#include "frontend/input_error.h"
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
  }
};

std::string subFolder(const std::string& dir, const CapturedKernel& k) {
  if (dir.empty()) return dir;
  std::string sub = (fs::path(dir) / fs::path(k.bundle).parent_path().filename()).string();
  makeOutputFolder(sub, "output");
  return sub;
}

// Exit code over all kernels: a crash or hang (3) outranks bad input (2), which outranks findings (1) —
// the codes' own order.
int combine(int worst, int rc) { return std::max(worst, rc); }

}  // namespace

int checkScript(CheckArgs& args) {
  ReportSink sink(args);

  CaptureRequest creq;
  creq.script = args.req.bundlePath;
  creq.scriptArgs = args.scriptArgs;
  creq.arch = args.tilelangArch;
  creq.params = args.req.params;
  creq.keepDir = args.keep;
  TempDirGuard guard;
  CaptureResult cap = captureScript(creq);
  if (cap.temporary) guard.dir = cap.dir;

  bool colour = sink.colour();
  std::string text = fmt::format("tile-doctor: captured {} kernel{} from {} (TileLang {}, lowered for {})\n",
                                 cap.kernels.size(), cap.kernels.size() == 1 ? "" : "s", creq.script,
                                 cap.tilelangVersion, creq.arch);
  nlohmann::json j = {{"script", fs::absolute(creq.script).string()}, {"tilelang_version", cap.tilelangVersion},
                      {"arch", creq.arch}, {"kernels", nlohmann::json::array()}};
  int worst = 0;
  for (size_t i = 0; i < cap.kernels.size(); ++i) {
    const CapturedKernel& k = cap.kernels[i];
    text += fmt::format("\n== kernel {} of {}: {}, compiled at {}\n", i + 1, cap.kernels.size(), k.entry, k.from);
    nlohmann::json jk = {{"entry", k.entry}, {"compiled_at", k.from}};
    if (!cap.temporary) jk["bundle"] = k.bundle;
    CheckRequest req = args.req;
    req.bundlePath = k.bundle;
    req.saveInputs = subFolder(args.req.saveInputs, k);
    try {
      CheckResult res = runCheck(req);
      for (Finding& f : res.report.findings)  // launch-limit findings sit at a manifest line: name the script's
        if (f.loc.file == res.bundle.manifestPath) f.loc.python = k.from;
      text += renderText(res.report, colour);
      jk["report"] = reportJson(res.report);
      worst = combine(worst, res.report.exitCode());
      try {  // a failed save must not lose the findings: it joins the report
        saveOutputs(res, subFolder(args.saveOutputs, k));
      } catch (const std::exception& e) {
        text += fmt::format("tile-doctor: error: saving the outputs: {}\n", e.what());
        jk["error"] = {{"where", args.saveOutputs}, {"message", std::string("saving the outputs: ") + e.what()}};
        worst = combine(worst, 2);
      }
    } catch (const InputError& e) {  // one kernel's bad input does not hide the others' findings
      text += fmt::format("tile-doctor: error: {}: {}\n", e.where(), e.what());
      jk["error"] = {{"where", e.where()}, {"message", e.what()}};
      worst = combine(worst, 2);
    }
    j["kernels"].push_back(jk);
  }
  if (!cap.stoppedWhy.empty()) {
    text += fmt::format("\nnote: the script stopped at {} ({}); kernels it compiles after that point were not captured\n",
                        cap.stoppedWhere.empty() ? creq.script : cap.stoppedWhere, cap.stoppedWhy);
    j["stopped"] = {{"where", cap.stoppedWhere}, {"why", cap.stoppedWhy}};
  }
  if (!cap.temporary) text += fmt::format("note: the bundles are kept in {}\n", cap.dir);
  j["exit_code"] = worst;
  sink.write(args.format == "json" ? j.dump(1) + "\n" : text);
  return worst;
}

}  // namespace td::cli
