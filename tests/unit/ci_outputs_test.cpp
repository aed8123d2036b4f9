// check as a CI stage: many inputs with one report and one exit code, --shard, --suppressions,
// --baseline (a report file or the history), the SQLite history (--db, tile-doctor history) and merging
// shards' histories, which equals one unsharded run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "temp_folder_test.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace {

const std::string kBundles = std::string(TD_TESTS_DIR) + "/bundles/";
const std::string kOverflow = kBundles + "shared_overflow/bundle.toml";  // one shared-out-of-bounds
const std::string kBarrier = kBundles + "missing_barrier/bundle.toml";   // two races and an uninitialised read
const std::string kFixed = kBundles + "missing_barrier/bundle_fixed.toml";  // clean

class CiOutputs : public td::test::TempFolderTest {
 protected:
  void write(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }

  // check ARGS --format json --out FILE: (exit code, report)
  std::pair<int, nlohmann::json> check(const std::string& args) {
    std::string out = path("report.json");
    fs::remove(out);
    td::test::Cli c = td::test::runCli(fmt::format("check {} --jobs 2 --format json --out {}", args, out));
    std::ifstream in(out);
    nlohmann::json j = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
    EXPECT_FALSE(j.is_null()) << c.output;
    return {c.code, j};
  }

};

std::multiset<std::string> kindsOf(const nlohmann::json& report, const char* list = "findings") {
  std::multiset<std::string> k;
  if (report.contains("inputs")) {
    for (const nlohmann::json& i : report["inputs"]) {
      auto inner = kindsOf(i["report"], list);
      k.insert(inner.begin(), inner.end());
    }
  } else if (report.contains(list)) {
    for (const nlohmann::json& f : report[list]) k.insert(f["kind"].get<std::string>());
  }
  return k;
}

std::multiset<std::string> historyFindings(const std::string& db) {
  td::test::Cli list = td::test::runCli("history --format json --db " + db);
  std::multiset<std::string> out;
  EXPECT_EQ(list.code, 0) << list.output;
  const nlohmann::json runs = nlohmann::json::parse(list.output);  // alive through the loop
  for (const nlohmann::json& run : runs["runs"]) {
    td::test::Cli show = td::test::runCli(fmt::format("history show {} --format json --db {}", run["id"].get<int>(), db));
    const nlohmann::json shown = nlohmann::json::parse(show.output);
    for (const nlohmann::json& f : shown["finding_list"])
      out.insert(f["input"].get<std::string>() + " " + f["id"].get<std::string>() + " " + f["kind"].get<std::string>());
  }
  return out;
}

}  // namespace

TEST_F(CiOutputs, ManyInputsGiveOneReportAndTheWorstExitCode) {
  auto [code, j] = check(kOverflow + " " + kFixed + " " + kBarrier);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(j["command"], "check");
  ASSERT_EQ(j["inputs"].size(), 3u);
  EXPECT_EQ(kindsOf(j), (std::multiset<std::string>{"shared-out-of-bounds", "shared-race-war", "shared-race-raw",
                                                    "uninitialized-shared-read"}));
  // A folder is every bundle manifest under it; a pattern (quoted: tile-doctor expands it) its matches.
  auto [folderCode, folder] = check(kBundles + "missing_barrier");
  EXPECT_EQ(folder["inputs"].size(), 2u);
  auto [globCode, glob] = check("'" + kBundles + "missing_barrier/bundle*.toml'");
  EXPECT_EQ(glob["inputs"].size(), 2u);
  // An input that is bad input does not stop the others; bad input outranks findings in the exit code.
  write("broken.toml", "[kernel]\nsource = \"nowhere.cu\"\n");
  auto [badCode, bad] = check(kOverflow + " " + path("broken.toml"));
  EXPECT_EQ(badCode, 2);
  ASSERT_EQ(bad["inputs"].size(), 2u);
  EXPECT_EQ(kindsOf(bad), (std::multiset<std::string>{"shared-out-of-bounds"}));
  EXPECT_TRUE(bad["inputs"][0]["report"].contains("error") || bad["inputs"][1]["report"].contains("error"));
  td::test::Cli text = td::test::runCli(fmt::format("check {} {} --jobs 2", kOverflow, kFixed));
  EXPECT_NE(text.output.find("2 inputs: 1 clean, 1 with findings"), std::string::npos) << text.output;
}

TEST_F(CiOutputs, SuppressionsHideAKnownFindingAndANewOneStillFails) {
  write("known.supp", "# accepted until the rewrite\nshared-out-of-bounds:overflow.cu:*\nrace:no_such_kernel\n");
  auto [code, j] = check(kOverflow + " --suppressions " + path("known.supp"));
  EXPECT_EQ(code, 0) << j.dump(1);
  EXPECT_EQ(kindsOf(j, "suppressed"), (std::multiset<std::string>{"shared-out-of-bounds"}));
  EXPECT_EQ(j["suppressed"][0]["suppressed_by"], path("known.supp") + ":2");
  ASSERT_EQ(j["suppressions"].size(), 2u);
  EXPECT_EQ(j["suppressions"][0]["matched"], 1);
  EXPECT_EQ(j["suppressions"][1]["matched"], 0);  // unused: reported
  // The same file over a second bundle: its findings are new problems and fail.
  auto [both, k] = check(kOverflow + " " + kBarrier + " --suppressions " + path("known.supp"));
  EXPECT_EQ(both, 1);
  EXPECT_EQ(kindsOf(k), (std::multiset<std::string>{"shared-race-war", "shared-race-raw", "uninitialized-shared-read"}));
  // By finding id, as the JSON report gives it.
  auto [plainCode, plain] = check(kBarrier);
  std::string id = plain["findings"][0]["id"];
  write("one.supp", "fingerprint:" + id + "\n");
  auto [oneCode, one] = check(kBarrier + " --suppressions " + path("one.supp"));
  EXPECT_EQ(one["findings"].size(), 2u);
  EXPECT_EQ(one["suppressed"][0]["id"], id);
  // A bad line is bad input at its line.
  write("bad.supp", "race:ok_kernel\nno colon here\n");
  td::test::Cli bad = td::test::runCli(fmt::format("check {} --suppressions {}", kOverflow, path("bad.supp")));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.output.find(path("bad.supp") + ":2"), std::string::npos) << bad.output;
}

TEST_F(CiOutputs, ABaselineReportHidesKnownFindingsAndNewOnesFail) {
  std::string base = path("base.json");
  td::test::runCli(fmt::format("check {} --jobs 2 --format json --out {}", kBarrier, base));
  auto [same, s] = check(kBarrier + " --baseline " + base);
  EXPECT_EQ(same, 0) << s.dump(1);
  EXPECT_EQ(kindsOf(s, "baselined").size(), 3u);
  EXPECT_EQ(s["baseline"]["absent"].size(), 0u);
  auto [more, m] = check(kBarrier + " " + kOverflow + " --baseline " + base);
  EXPECT_EQ(more, 1);  // the overflow is new
  EXPECT_EQ(kindsOf(m), (std::multiset<std::string>{"shared-out-of-bounds"}));
  EXPECT_EQ(m["inputs"][1]["report"]["findings"][0]["baseline_state"], "new");
  // Fixed: the baseline's findings are absent now, in SARIF as baselineState "absent".
  td::test::Cli sarif = td::test::runCli(fmt::format("check {} --format sarif --baseline {}", kFixed, base));
  EXPECT_EQ(sarif.code, 0);
  nlohmann::json log = nlohmann::json::parse(sarif.output.substr(sarif.output.find('{')));
  int absent = 0;
  for (const nlohmann::json& r : log["runs"][0]["results"]) absent += r["baselineState"] == "absent";
  EXPECT_EQ(absent, 3);
}

TEST_F(CiOutputs, TheHistoryRecordsRunsAndServesAsBaseline) {
  std::string db = path("history.sqlite");
  auto [first, f] = check(kBarrier + " --db " + db);
  EXPECT_EQ(first, 1);
  auto [again, a] = check(kBarrier + " " + kOverflow + " --db " + db + " --baseline last");
  EXPECT_EQ(again, 1);  // the overflow is new against run 1
  EXPECT_EQ(kindsOf(a), (std::multiset<std::string>{"shared-out-of-bounds"}));
  td::test::Cli list = td::test::runCli("history --format json --db " + db);
  nlohmann::json runs = nlohmann::json::parse(list.output)["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["exit_code"], 1);
  EXPECT_EQ(runs[1]["inputs"], 2);
  EXPECT_NE(runs[1]["command"].get<std::string>().find("--baseline last"), std::string::npos);
  td::test::Cli compare = td::test::runCli("history compare 1 2 --format json --db " + db);
  EXPECT_EQ(compare.code, 1);  // a new finding
  nlohmann::json c = nlohmann::json::parse(compare.output);
  ASSERT_EQ(c["new"].size(), 1u);
  EXPECT_EQ(c["new"][0]["kind"], "shared-out-of-bounds");
  EXPECT_EQ(c["unchanged"].size(), 3u);
  td::test::Cli missing = td::test::runCli("history show 9 --db " + db);
  EXPECT_EQ(missing.code, 2);
}

TEST_F(CiOutputs, TwoShardsMergedEqualOneUnshardedRun) {
  std::string inputs = kBundles + "missing_barrier " + kOverflow + " " + kBundles + "reduce/bundle.toml";
  std::string whole = path("whole.sqlite"), one = path("shard1.sqlite"), two = path("shard2.sqlite"), merged = path("merged.sqlite");
  auto [wholeCode, w] = check(inputs + " --db " + whole);
  auto [oneCode, s1] = check(inputs + " --shard 1/2 --db " + one);
  auto [twoCode, s2] = check(inputs + " --shard 2/2 --db " + two);
  EXPECT_EQ(s1["shard"]["inputs_skipped"].get<int>() + s2["shard"]["inputs_skipped"].get<int>(),
            static_cast<int>(w["inputs"].size()));
  EXPECT_EQ(s1["inputs"].size() + s2["inputs"].size(), w["inputs"].size());
  td::test::Cli m = td::test::runCli(fmt::format("history merge {} {} --db {}", one, two, merged));
  ASSERT_EQ(m.code, 0) << m.output;
  EXPECT_EQ(historyFindings(merged), historyFindings(whole));
  EXPECT_FALSE(historyFindings(whole).empty());
  td::test::Cli badShard = td::test::runCli("check " + inputs + " --shard 3/2");
  EXPECT_EQ(badShard.code, 2);
}

TEST_F(CiOutputs, JunitOfManyInputsHasASuitePerInput) {
  td::test::Cli j = td::test::runCli(fmt::format("check {} {} --jobs 2 --format junit", kOverflow, kBarrier));
  EXPECT_EQ(j.code, 1);
  EXPECT_NE(j.output.find("<testsuites"), std::string::npos);
  size_t suites = 0;
  for (size_t at = j.output.find("<testsuite "); at != std::string::npos; at = j.output.find("<testsuite ", at + 1)) ++suites;
  EXPECT_EQ(suites, 2u);
  size_t failures = 0;
  for (size_t at = j.output.find("<failure "); at != std::string::npos; at = j.output.find("<failure ", at + 1)) ++failures;
  EXPECT_EQ(failures, 4u);
}

TEST_F(CiOutputs, ReportWritesTheSameReportAgainInAnotherFormat) {
  std::string sarif = path("again.sarif"), junit = path("again.xml"), text = path("again.txt");
  td::test::Cli c = td::test::runCli(fmt::format("check {} --jobs 2 --report sarif:{} --report junit:{} --report text:{}",
                                                 kBarrier, sarif, junit, text));
  EXPECT_EQ(c.code, 1) << c.output;
  std::ifstream sarifIn(sarif);
  nlohmann::json log = nlohmann::json::parse(sarifIn, nullptr, false);
  ASSERT_FALSE(log.is_discarded()) << c.output;
  std::multiset<std::string> rules;
  for (const nlohmann::json& r : log["runs"][0]["results"]) rules.insert(r["ruleId"].get<std::string>());
  auto [code, json] = check(kBarrier);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(rules, kindsOf(json));  // the same findings as the JSON report of the same bundle
  std::string xml((std::istreambuf_iterator<char>(std::ifstream(junit).rdbuf())), std::istreambuf_iterator<char>());
  size_t failures = 0;
  for (size_t at = xml.find("<failure "); at != std::string::npos; at = xml.find("<failure ", at + 1)) ++failures;
  EXPECT_EQ(failures, rules.size());
  std::string written((std::istreambuf_iterator<char>(std::ifstream(text).rdbuf())), std::istreambuf_iterator<char>());
  EXPECT_EQ(written, c.output);  // the text report, uncoloured, as standard output shows it

  td::test::Cli badFormat = td::test::runCli(fmt::format("check {} --report xml:{}", kFixed, path("x")));
  EXPECT_EQ(badFormat.code, 2);
  EXPECT_NE(badFormat.output.find("--report: 'xml:"), std::string::npos) << badFormat.output;
  td::test::Cli badPath = td::test::runCli(fmt::format("check {} --report sarif:{}/none/x.sarif", kFixed, path("")));
  EXPECT_EQ(badPath.code, 2);
  EXPECT_EQ(badPath.output.find("SUMMARY"), std::string::npos) << "a bad --report path costs no run";
}
