// `tile-doctor bisect-shape` on kernels that break above a shape (tests/bundles/bisect/README.md): each
// threshold found exactly on the CPU executor within ceil(log2(values / align)) + 4 probes per axis, what
// changed across it named, non-monotone failures reported as such, an interrupted search resumed from the
// probe cache without repeating a probe.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "temp_folder_test.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace {

const std::string kBundles = std::string(TD_TESTS_DIR) + "/bundles/bisect/";

struct Bisection {
  int code;
  std::string output;
  nlohmann::json report;
};

class BisectCli : public td::test::TempFolderTest {
 protected:

  Bisection bisect(const std::string& args, const std::string& cache = "") {
    std::string out = (dir_ / "report.json").string();
    fs::remove(out);
    td::test::Cli c = td::test::runCli(fmt::format("bisect-shape {} --format json --out {} {}", args, out,
                                                   cache.empty() ? "--no-cache" : "--cache " + cache));
    Bisection b{c.code, c.output, nullptr};
    std::ifstream in(out);
    if (in) b.report = nlohmann::json::parse(in, nullptr, false);
    return b;
  }

};

int budget(int64_t lo, int64_t hi, int64_t align) {
  int64_t values = hi / align - (lo + align - 1) / align + 1;
  return static_cast<int>(std::ceil(std::log2(double(values)))) + 4;
}

bool mentions(const nlohmann::json& changes, const std::string& text) {
  for (const nlohmann::json& c : changes)
    if (c["text"].get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

int64_t rows(const std::string& db) {
  sqlite3* h = nullptr;
  sqlite3_open(db.c_str(), &h);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(h, "SELECT COUNT(*) FROM probes", -1, &s, nullptr);
  int64_t n = s && sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
  sqlite3_finalize(s);
  sqlite3_close(h);
  return n;
}

}  // namespace

TEST_F(BisectCli, SharedMemoryGrowingWithATileParameterPassesMetaxLimit) {
  Bisection b = bisect(kBundles + "row_tile.toml --axis TILE=256:65536 --align 256 --target metax-c500 --fail-on limit");
  ASSERT_EQ(b.code, 1) << b.output;
  const nlohmann::json& t = b.report["threshold"];
  EXPECT_EQ(t["passing"]["TILE"], 16384);  // 65536 bytes: exactly the limit
  EXPECT_EQ(t["failing"]["TILE"], 16640);  // the next multiple of 256
  EXPECT_EQ(t["failure"]["kind"], "shared-memory-limit");
  EXPECT_TRUE(mentions(t["changes"], "65536 -> 66560 bytes (metax-c500 allows 65536: crossed here)")) << t["changes"];
  EXPECT_LE(b.report["probes_run"].get<int>(), budget(256, 65536, 256));
  // The repro is the manifest at the failing shape, and checking it reports the failure.
  std::string command = b.report["repro"]["command"];
  ASSERT_EQ(command.rfind("tile-doctor check ", 0), 0u) << command;
  td::test::Cli again = td::test::runCli(command.substr(std::string("tile-doctor ").size()));  // --target included
  EXPECT_EQ(again.code, 1);
  EXPECT_NE(again.output.find("66560 bytes of shared memory"), std::string::npos) << again.output;
}

TEST_F(BisectCli, AnEdgeGuardWrongOnlyAboveASize) {
  Bisection b = bisect(kBundles + "row_buffer.toml --axis N=64:8192 --checks bounds");
  ASSERT_EQ(b.code, 1) << b.output;
  EXPECT_EQ(b.report["threshold"]["passing"]["N"], 2048);
  EXPECT_EQ(b.report["threshold"]["failing"]["N"], 2049);
  EXPECT_EQ(b.report["threshold"]["failure"]["kind"], "shared-out-of-bounds");
  EXPECT_NE(b.report["threshold"]["failure"]["place"].get<std::string>().find("row_buffer.cu:6"), std::string::npos);
  EXPECT_LE(b.report["probes_run"].get<int>(), budget(64, 8192, 1));
  EXPECT_TRUE(b.report["monotone"].get<bool>());
}

TEST_F(BisectCli, AnInt32IndexProductOverflowingAboveASize) {
  Bisection b = bisect(kBundles + "resize.toml --axis N=1024:65536 --checks bounds");
  ASSERT_EQ(b.code, 1) << b.output;
  EXPECT_EQ(b.report["threshold"]["failing"]["N"], 46342);  // (N - 1) * N >= 2^31
  EXPECT_EQ(b.report["threshold"]["passing"]["N"], 46341);
  EXPECT_EQ(b.report["threshold"]["failure"]["kind"], "global-out-of-bounds");
  EXPECT_TRUE(mentions(b.report["threshold"]["changes"], "(N - 1) x in_n = 2147534622 passes 2^31"))
      << b.report["threshold"]["changes"];
  EXPECT_LE(b.report["probes_run"].get<int>(), budget(1024, 65536, 1));
}

// A store through a null workspace pointer above K = 4096: on the CPU executor containment skips it and
// reports a wild-access, which --fail-on crash counts (it faults on a GPU).
TEST_F(BisectCli, AWildPointerAboveAThreshold) {
  Bisection b = bisect(kBundles + "split_workspace.toml --axis K=256:65536 --fail-on crash");
  ASSERT_EQ(b.code, 1) << b.output;
  EXPECT_EQ(b.report["threshold"]["failing"]["K"], 4097);
  EXPECT_EQ(b.report["threshold"]["failure"]["kind"], "wild-access");
  EXPECT_LE(b.report["probes_run"].get<int>(), budget(256, 65536, 1));
}

TEST_F(BisectCli, AHangAboveAThreshold) {
  Bisection b = bisect(kBundles + "short_counter.toml --axis N=1024:131072:1024 --fail-on hang --timeout 2");
  ASSERT_EQ(b.code, 1) << b.output;
  EXPECT_EQ(b.report["threshold"]["failing"]["N"], 65536);
  EXPECT_EQ(b.report["threshold"]["passing"]["N"], 64512);
  EXPECT_EQ(b.report["threshold"]["failure"]["kind"], "kernel-hang");
  EXPECT_TRUE(mentions(b.report["threshold"]["changes"], "a 16-bit counter")) << b.report["threshold"]["changes"];
  EXPECT_LE(b.report["probes_run"].get<int>(), budget(1024, 131072, 1024));
}

TEST_F(BisectCli, TwoAxesGiveTheSmallestFailingCombination) {
  Bisection b = bisect(kBundles + "tile_pair.toml --axis BM=16:512 --axis BN=16:512 --align 16 --target metax-c500");
  ASSERT_EQ(b.code, 1) << b.output;
  const nlohmann::json& t = b.report["threshold"];
  EXPECT_TRUE(b.report["combination"].get<bool>());
  // Neither alone (the other at 16) passes 65536 bytes; from the corner BM goes down to 48 (48 * 512 * 4 >
  // 65536 > 32 * 512 * 4), then BN to 352 (48 * 352 * 4 = 67584 > 65536 >= 48 * 336 * 4).
  EXPECT_EQ(t["failing"], (nlohmann::json{{"BM", 48}, {"BN", 352}}));
  EXPECT_EQ(t["passing"], (nlohmann::json{{"BM", 48}, {"BN", 336}}));
  EXPECT_LE(b.report["probes_run"].get<int>(), 2 * budget(16, 512, 16));
}

TEST_F(BisectCli, FailingOnlyAtOddMultiplesOfEightIsReportedAsNotMonotone) {
  Bisection b = bisect(kBundles + "vector16.toml --axis N=8:512 --align 8 --checks bounds");
  ASSERT_EQ(b.code, 1) << b.output;
  EXPECT_FALSE(b.report["monotone"].get<bool>());
  EXPECT_EQ(b.report["axes"][0]["contradictions"][0], (nlohmann::json{{"fails_at", 8}, {"passes_at", 16}}));
  Bisection scanned = bisect(kBundles + "vector16.toml --axis N=16:512 --align 8 --checks bounds --scan-residues");
  ASSERT_EQ(scanned.code, 1) << scanned.output;
  const nlohmann::json& r = scanned.report["axes"][0]["residues"];
  EXPECT_EQ(r["modulus"], 16);
  EXPECT_EQ(r["failing_residues"], (nlohmann::json{8}));
  EXPECT_EQ(scanned.report["threshold"]["failing"]["N"], 24);
  EXPECT_FALSE(scanned.report["monotone"].get<bool>());
}

TEST_F(BisectCli, AnInterruptedBisectionResumesWithoutRepeatingAProbe) {
  std::string db = (dir_ / "probes.sqlite").string();
  std::string args = kBundles + "row_buffer.toml --axis N=64:8192 --checks bounds";
  Bisection first = bisect(args + " --max-probes 5", db);
  ASSERT_EQ(first.code, 7) << first.output;  // interrupted
  EXPECT_EQ(first.report["probes_run"], 5);
  EXPECT_EQ(rows(db), 5);
  Bisection resumed = bisect(args, db);
  ASSERT_EQ(resumed.code, 1) << resumed.output;
  EXPECT_EQ(resumed.report["threshold"]["failing"]["N"], 2049);
  EXPECT_EQ(resumed.report["probes_cached"], 5);
  int total = static_cast<int>(resumed.report["probes"].size());
  EXPECT_EQ(resumed.report["probes_run"], total - 5);
  EXPECT_EQ(rows(db), total);  // every probe once
  Bisection repeated = bisect(args, db);
  EXPECT_EQ(repeated.report["probes_run"], 0);
  EXPECT_EQ(repeated.report["probes_cached"], total);
  EXPECT_EQ(rows(db), total);
}

TEST_F(BisectCli, ParallelProbesAndFailOnFilters) {
  Bisection b = bisect(kBundles + "row_tile.toml --axis TILE=256:65536:256 --target metax-c500 --jobs 2");
  ASSERT_EQ(b.code, 1) << b.output;
  EXPECT_EQ(b.report["threshold"]["failing"]["TILE"], 16640);
  EXPECT_EQ(b.report["parallel"], 2);
  // A bounds failure is no race: nothing fails under --fail-on race.
  Bisection none = bisect(kBundles + "row_buffer.toml --axis N=1024:4096 --checks bounds,race --fail-on race");
  EXPECT_EQ(none.code, 0) << none.output;
  EXPECT_FALSE(none.report.contains("threshold"));
}

TEST_F(BisectCli, BadInputNamesWhatIsWrong) {
  td::test::Cli noParam = td::test::runCli("bisect-shape " + kBundles + "row_tile.toml --axis Q=1:4 --no-cache");
  EXPECT_EQ(noParam.code, 2);
  EXPECT_NE(noParam.output.find("no parameter 'Q'"), std::string::npos) << noParam.output;
  td::test::Cli badAxis = td::test::runCli("bisect-shape " + kBundles + "row_tile.toml --axis TILE=8:4");
  EXPECT_EQ(badAxis.code, 2);
  EXPECT_NE(badAxis.output.find("8 is above 4"), std::string::npos) << badAxis.output;
  td::test::Cli badFail = td::test::runCli("bisect-shape " + kBundles + "row_tile.toml --axis TILE=8:64 --fail-on sometimes");
  EXPECT_EQ(badFail.code, 2);
  EXPECT_NE(badFail.output.find("'sometimes'"), std::string::npos) << badFail.output;
  td::test::Cli keep = td::test::runCli("bisect-shape " + kBundles + "row_tile.toml --axis TILE=8:64 --save-outputs /tmp/x");
  EXPECT_EQ(keep.code, 2);
  td::test::Cli both = td::test::runCli("bisect-shape " + kBundles + "row_tile.toml --axis TILE=8:64 --param TILE=8");
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.output.find("sets the axis TILE"), std::string::npos) << both.output;
}

// Probes run at once only as many as memory holds at the axes' largest shape: ROWS up to 2^22 rows of
// 2048 floats is 2 x 32 GiB of buffers a probe, more than this machine (or CI's) has, so one at a time.
TEST_F(BisectCli, ProbesAtOnceFitTheMemory) {
  Bisection b = bisect(kBundles + "row_buffer.toml --axis ROWS=4:4194304:4 --param N=2048 --checks bounds --jobs 2 "
                       "--max-probes 3");
  std::string notes = b.report.is_object() ? b.report["notes"].dump() : b.output;
  EXPECT_NE(notes.find("--jobs 2 runs 1 probes at once: each may hold"), std::string::npos) << notes;
}
