// Every bundle under examples/ and tests/ checked with the default checks: tile-doctor's own work never
// fails on them (an internal error on a kernel clang accepts is always tile-doctor's bug). One block each
// (--blocks sample:1) keeps it short: instrumentation, compiling and launching are what is under test here;
// the findings of each bundle are its own tests' business.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <unistd.h>

#include "test_support.h"

using namespace td::test;
namespace fs = std::filesystem;

namespace {

// One folder-wide check; returns each input's path (relative to the source tree) and exit code.
std::map<std::string, int> exitCodesOf(const std::string& inputs, const std::string& options, std::string& output) {
  fs::path report = fs::temp_directory_path() / ("td-every-bundle-" + std::to_string(::getpid()) + ".json");
  Cli r = runCli(inputs + " --blocks sample:1 --timeout 20 --format json --out " + report.string() + " " + options);
  output = r.output;
  std::map<std::string, int> codes;
  std::ifstream in(report);
  if (!in) return codes;
  nlohmann::json j = nlohmann::json::parse(in);
  fs::remove(report);
  std::string root = fs::path(TD_EXAMPLES_DIR).parent_path().string() + "/";
  for (const auto& input : j["inputs"]) {
    std::string path = input.value("input", std::string());
    if (path.rfind(root, 0) == 0) path = path.substr(root.size());
    codes[path] = input.contains("report") ? input["report"].value("exit_code", -1) : input.value("exit_code", -1);
  }
  return codes;
}

// Bundles the CPU executor on the default target refuses by design (exit 6): wave-64 sources need a
// wave-64 target (and every MACA bundle, tests/bundles/maca_*, sdk_semantics_maca), TMA descriptors the
// CUDA executor, and one bundle tests the refusal of unknown PTX.
const std::set<std::string> kRefusedOnNvidia = {
    "tests/bundles/hip_mfma_kinds/bundle.toml", "tests/bundles/hip_wave64/bundle.toml",
    "tests/bundles/maca_wave64/bundle.toml",    "tests/bundles/tma_copy/bundle.toml",
    "tests/bundles/tma_copy/bundle_bug.toml",   "tests/bundles/unknown_ptx/bundle.toml"};

bool isMaca(const std::string& path) { return path.find("maca") != std::string::npos; }

}  // namespace

TEST(EveryBundle, DefaultChecksNeverStopWithAnInternalError) {
  std::string output;
  std::string dirs = std::string("check ") + TD_EXAMPLES_DIR + " " + TD_TESTS_DIR + "/bundles";
  std::map<std::string, int> codes = exitCodesOf(dirs, "", output);
  ASSERT_GE(codes.size(), 100u) << output;
  for (const auto& [path, code] : codes) {
    EXPECT_NE(code, 4) << path << "\n" << output;
    EXPECT_NE(code, 2) << path << "\n" << output;
    if (code == 6) EXPECT_TRUE(kRefusedOnNvidia.count(path) || isMaca(path)) << path << " refused\n" << output;
  }
  // The wave-64 ones on a wave-64 target.
  std::string wave64;
  size_t count = 0;
  for (const auto& [p, code] : codes)
    if (code == 6 && (p.find("wave64") != std::string::npos || p.find("mfma") != std::string::npos || isMaca(p))) {
      wave64 += " " + fs::path(TD_EXAMPLES_DIR).parent_path().string() + "/" + p;
      ++count;
    }
  codes = exitCodesOf("check" + wave64, "--target metax-c500", output);
  ASSERT_GE(count, 10u) << output;
  ASSERT_EQ(codes.size(), count) << output;
  for (const auto& [path, code] : codes) EXPECT_TRUE(code == 0 || code == 1) << path << " exit " << code << "\n" << output;
}
