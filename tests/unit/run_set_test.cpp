// A check's runs and how they are reported: the exit code over a script's runs, and one reporter per
// format for bundle and script checks alike.
#include <gtest/gtest.h>

#include "runtime/executor_limit.h"
#include "sanitizer/reporters.h"
#include "model/rules.h"
#include "sanitizer/run_set.h"

using namespace td;

namespace {

Report reportWith(const char* kind, bool fatal = false) {
  Report r;
  r.kernel = "k";
  r.launched = true;
  if (kind) {
    Finding f;
    f.kind = kind;
    f.title = "something";
    f.fatal = fatal;
    r.findings.push_back(f);
  }
  return r;
}

td::Run launchRun(int launch, Report r, bool checked = true) {
  td::Run run;
  run.launch = launch;
  run.entry = "k";
  run.checked = checked;
  run.report = std::move(r);
  return run;
}

}  // namespace

TEST(RunSet, ExitCodeRanksCrashOverFindingsOverScriptFailure) {
  RunSet set;
  set.script.emplace().exitCode = 1;  // the script raised
  EXPECT_EQ(set.exitCode(), kExitScriptFailed) << "only the script failed";
  set.runs.push_back(launchRun(1, reportWith(nullptr)));
  EXPECT_EQ(set.exitCode(), kExitScriptFailed);
  set.runs.push_back(launchRun(2, reportWith(rule::GlobalOutOfBounds)));
  EXPECT_EQ(set.exitCode(), 1) << "findings outrank the script's failure";
  td::Run cannot;
  cannot.error = "the CPU executor cannot run it";
  cannot.errorCode = kExitExecutorCannotRun;
  set.runs.push_back(cannot);
  EXPECT_EQ(set.exitCode(), 1) << "findings outrank a kernel the executor cannot run";
  set.runs.push_back(launchRun(3, reportWith(rule::KernelHang, true), false));
  EXPECT_EQ(set.exitCode(), 3) << "an unchecked launch that hung still speaks";
  RunSet quiet;
  quiet.runs.push_back(launchRun(1, reportWith(rule::GlobalOutOfBounds), false));
  EXPECT_EQ(quiet.exitCode(), 0) << "an unchecked launch's findings do not count";
}

TEST(Reporters, OneReporterPerFormatForBundleAndScriptChecks) {
  for (const std::string& f : reportFormats()) EXPECT_NE(makeReporter(f, false), nullptr) << f;
  EXPECT_EQ(makeReporter("xml", false), nullptr);

  RunSet bundle;
  bundle.runs.push_back(launchRun(0, reportWith(rule::SharedOutOfBounds)));
  EXPECT_EQ(makeReporter("text", false)->render(bundle), renderText(*bundle.runs[0].report, false));
  EXPECT_EQ(makeReporter("json", false)->render(bundle), renderJson(*bundle.runs[0].report));

  RunSet script = bundle;
  script.runs[0].launch = 1;
  ScriptRun& s = script.script.emplace();
  s.script = s.scriptAbsolute = "/tmp/kernel.py";
  s.tilelangVersion = "0.1.15";
  s.arch = "sm_80";
  nlohmann::json j = nlohmann::json::parse(makeReporter("json", false)->render(script));
  EXPECT_EQ(j["script"], "/tmp/kernel.py");
  EXPECT_EQ(j["launches"].size(), 1u);
  EXPECT_EQ(j["launches"][0]["report"]["findings"][0]["kind"], rule::SharedOutOfBounds);
  EXPECT_EQ(j["exit_code"], 1);
  std::string text = makeReporter("text", false)->render(script);
  EXPECT_NE(text.find("tile-doctor: ran /tmp/kernel.py to its end: 1 launch, 1 checked"), std::string::npos) << text;
  EXPECT_NE(text.find("==tile-doctor== ERROR: shared-out-of-bounds"), std::string::npos) << text;

  EXPECT_TRUE(makeReporter("json", false)->machineReadable());
  EXPECT_FALSE(makeReporter("text", false)->machineReadable());
  EXPECT_EQ(makeReporter("text", false)->renderStop(2, "bad-input", "a.toml", 3, "bad"), "");
  nlohmann::json stop = nlohmann::json::parse(makeReporter("json", false)->renderStop(2, "bad-input", "a.toml", 3, "bad"));
  EXPECT_EQ(stop["error"]["line"], 3);
  EXPECT_EQ(stop["exit_code"], 2);
}
