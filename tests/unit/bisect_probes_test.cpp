// bisect-shape's probes as processes, against stand-in checks written here (shell scripts that answer as
// `tile-doctor check --format json --out FILE` would): --confirm runs a probe N times and calls a probe
// that failed in some runs only flaky; the watchdog kills a probe that outlives it; the cache keeps judged
// outcomes and never an unjudged one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sys/stat.h>

#include "bisect/process_prober.h"
#include "temp_folder_test.h"

using namespace td::bisect;
namespace fs = std::filesystem;

namespace {

class BisectProbes : public td::test::TempFolderTest {
 protected:

  // A stand-in check: `body` runs with $OUT the report path and $COUNT the times it ran so far.
  std::string tool(const std::string& body) {
    std::string path = (dir_ / "fake-check.sh").string();
    std::ofstream(path) << "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in --out=*) OUT=${a#--out=};; esac; done\n"
                        << "COUNT=$(cat " << (dir_ / "count").string() << " 2>/dev/null || echo 0); COUNT=$((COUNT + 1)); echo $COUNT > "
                        << (dir_ / "count").string() << "\n" << body << "\n";
    ::chmod(path.c_str(), 0755);
    return path;
  }

  ProbeSetup setup(const std::string& toolPath, const std::string& failOn = "any") {
    ProbeSetup s;
    s.tool = toolPath;
    s.input = (dir_ / "bundle.toml").string();
    s.axes = {parseAxis("N=1:8", 1)};
    s.failOn = FailCondition::parse(failOn);
    return s;
  }

};

const char* kFault = R"({"tool": "tile-doctor", "exit_code": 3, "findings": [{"kind": "kernel-fault", "message": "the kernel crashed", "location": {"file": "k.cu", "line": 7}}]})";
const char* kClean = R"({"tool": "tile-doctor", "exit_code": 0, "findings": []})";

}  // namespace

TEST_F(BisectProbes, ConfirmRunsEachProbeNTimesAndNamesAFlakyOne) {
  // Faults in two runs of three (aiter #5054's "2 of 3 runs fault").
  std::string t = tool(fmt::format("if [ $((COUNT % 3)) -ne 0 ]; then echo '{}' > \"$OUT\"; exit 3; fi; echo '{}' > \"$OUT\"",
                                   kFault, kClean));
  ProbeSetup s = setup(t);
  s.confirm = 3;
  ProbeCache noCache("");
  ProcessProber prober(s, noCache, "identity");
  std::vector<ProbeOutcome> o = prober.probe({{4}});
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].verdict, Verdict::Fail);
  EXPECT_EQ(o[0].runs, 3);
  EXPECT_EQ(o[0].failures, 2);
  EXPECT_TRUE(o[0].flaky());
  EXPECT_EQ(o[0].kind, "kernel-fault");
  EXPECT_EQ(o[0].place, "k.cu:7");
  EXPECT_EQ(prober.ran(), 1);  // one shape, three runs
}

TEST_F(BisectProbes, TheWatchdogKillsAProbeThatOutlivesIt) {
  std::string t = tool("sleep 30");
  ProbeCache noCache("");
  ProbeSetup hang = setup(t, "hang");
  hang.watchdogSeconds = 0.5;
  auto start = std::chrono::steady_clock::now();
  ProbeOutcome o = ProcessProber(hang, noCache, "identity").probe({{2}})[0];
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
  EXPECT_EQ(o.verdict, Verdict::Fail);  // a hang is what --fail-on hang looks for
  EXPECT_EQ(o.kind, "probe-timeout");
  ProbeSetup bounds = setup(t, "bounds");
  bounds.watchdogSeconds = 0.5;
  ProbeOutcome unjudged = ProcessProber(bounds, noCache, "identity").probe({{2}})[0];
  EXPECT_EQ(unjudged.verdict, Verdict::Error);  // not what was asked about: the search cannot judge it
}

TEST_F(BisectProbes, TheCacheKeepsJudgedOutcomesOnly) {
  ProbeCache cache((dir_ / "probes.sqlite").string());
  std::string fails = tool(fmt::format("echo '{}' > \"$OUT\"; exit 3", kFault));
  ProcessProber prober(setup(fails), cache, "identity");
  prober.probe({{3}});
  EXPECT_EQ(cache.size(), 1);
  ProbeOutcome again = ProcessProber(setup(fails), cache, "identity").probe({{3}})[0];
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(again.kind, "kernel-fault");
  // Another input identity (an edited kernel) never reuses it.
  EXPECT_FALSE(ProcessProber(setup(fails), cache, "edited").probe({{3}})[0].cached);
  // A probe that is bad input at its shape is not kept: it runs again next time.
  std::string bad = tool(R"(echo '{"tool": "tile-doctor", "schema_version": 1, "exit_code": 2, "error": {"kind": "bad-input", "file": "b.toml", "line": 4, "message": "too large"}}' > "$OUT"; exit 2)");
  int64_t before = cache.size();
  ProbeOutcome b = ProcessProber(setup(bad), cache, "identity").probe({{5}})[0];
  EXPECT_EQ(b.verdict, Verdict::Error);
  EXPECT_EQ(b.place, "b.toml:4");
  EXPECT_EQ(cache.size(), before);
}
