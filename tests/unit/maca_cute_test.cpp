// tilelang-metax's templates build on mcTlass's CuTe, which is not public: tile-doctor gives CuTe's MMA
// atoms for MetaX's MXC MMA on top of the CUTLASS CuTe TileLang ships (frontend/prelude/td_maca_cute.h),
// compiled with the CUDA SDK's headers and the MACA prelude over them. A CuTe GEMM tile written here
// (tests/bundles/maca_cute) computes A * B^T exactly on small integers, its unsynchronised restaging is a
// race; shuffles and warpSize mean the same wave under the SDK's headers as under the prelude; MACA's fp8
// types round as the OCP formats do.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "frontend/compiler.h"
#include "frontend/fp8.h"
#include "frontend/input_error.h"
#include "frontend/read_roots.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace {

const fs::path kFolder = fs::path(TD_TESTS_DIR) / "bundles" / "maca_cute";

// CUTLASS's include folder in the TileLang that scripts/setup-tilelang.sh installs beside the sources.
std::string tilelangCutlass() {
  std::error_code ec;
  fs::path lib = fs::path(TD_TESTS_DIR).parent_path() / ".venv-tilelang" / "lib";
  for (const auto& py : fs::directory_iterator(lib, ec)) {
    fs::path include = py.path() / "site-packages" / "tilelang" / "3rdparty" / "cutlass" / "include";
    if (fs::is_directory(include / "cute", ec)) return include.string();
  }
  return "";
}

class MacaCute : public ::testing::Test {
 protected:
  void SetUp() override {
    cutlass_ = tilelangCutlass();
    if (cutlass_.empty()) GTEST_SKIP() << "no TileLang CUTLASS (scripts/setup-tilelang.sh installs it)";
    if (td::findCudaSdk().empty()) GTEST_SKIP() << "no CUDA SDK headers";
    dir_ = fs::temp_directory_path() / fmt::format("td-maca-cute-{}-{}", ::getpid(),
                                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    td::addIncludeRoot(kFolder.string());  // the manifests written here name the source there
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string manifest(const std::string& source, const std::string& entry, const std::string& headers,
                       const std::string& flags, const std::string& args, int threads) {
    std::string path = (dir_ / fmt::format("{}_{}.toml", entry, headers)).string();  // one per kernel and mode
    std::ofstream(path) << fmt::format(
        "[kernel]\nsource = \"{}\"\nentry = \"{}\"\ndialect = \"maca\"\nheaders = \"{}\"\ninclude = [\"{}\"]\n"
        "flags = [{}]\n[launch]\ngrid = [1]\nblock = [{}]\n{}",
        (kFolder / source).string(), entry, headers, cutlass_, flags, threads, args);
    return path;
  }
  std::string gemm(const char* initA, const char* initB, const std::string& flags = "", const char* entry = "cute_gemm") {
    return manifest("kernel.maca", entry, "cuda", flags,
                    fmt::format("[[args]]\nname = \"A\"\ntype = \"half*\"\nshape = [32, 32]\ninit = \"{}\"\n"
                                "[[args]]\nname = \"B\"\ntype = \"half*\"\nshape = [32, 32]\ninit = \"{}\"\n"
                                "[[args]]\nname = \"C\"\ntype = \"float*\"\nshape = [32, 32]\noutput = true\n",
                                initA, initB),
                    256);
  }
  std::string cutlass_;
  fs::path dir_;
};

TEST_F(MacaCute, AGemmTileOverTheMxcAtomComputesAtimesBTransposed) {
  // A = arange (A[i][k] = 32 i + k), B = ones: C[i][j] = 1024 i + 496; then the other way round.
  td::CheckResult rows = td::test::check(gemm("arange", "ones"), "metax-c500");
  EXPECT_TRUE(rows.report.findings.empty());
  std::vector<double> c = td::test::values(rows, "C");
  ASSERT_EQ(c.size(), 1024u);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) ASSERT_EQ(c[i * 32 + j], 1024.0 * i + 496) << i << "," << j;
  td::CheckResult cols = td::test::check(gemm("ones", "arange"), "metax-c500");
  EXPECT_TRUE(cols.report.findings.empty());
  c = td::test::values(cols, "C");
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) ASSERT_EQ(c[i * 32 + j], 1024.0 * j + 496) << i << "," << j;
}

TEST_F(MacaCute, McTlassEraTiledMmaAndUniversalCopyAtomsComputeTheSameTile) {
  td::CheckResult r = td::test::check(gemm("arange", "ones", "", "cute_gemm_copy_atoms"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty());
  std::vector<double> c = td::test::values(r, "C");
  ASSERT_EQ(c.size(), 1024u);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) ASSERT_EQ(c[i * 32 + j], 1024.0 * i + 496) << i << "," << j;
}

TEST_F(MacaCute, RestagingTheTileWithNoBarrierIsARace) {
  td::CheckResult r = td::test::check(gemm("arange", "ones", "\"-DUNSYNCED_STAGING\""), "metax-c500");
  const td::Finding* f = td::test::find(r, "shared-race-war");
  ASSERT_NE(f, nullptr) << r.report.findings.size();
  EXPECT_EQ(f->loc.line, 37u);
}

TEST_F(MacaCute, ShufflesAndWarpSizeMeanTheWaveUnderTheSdksHeadersAsUnderThePrelude) {
  for (const char* headers : {"cuda", "prelude"}) {
    std::string flags = std::string(headers) == "cuda" ? "\"-DWITH_CUTE\"" : "";
    td::CheckResult r = td::test::check(
        manifest("wave.maca", "wave", headers, flags, "[[args]]\nname = \"out\"\ntype = \"int32*\"\nshape = [128]\n", 128),
        "metax-c500");
    std::vector<double> out = td::test::values(r, "out");
    ASSERT_EQ(out.size(), 128u);
    for (int t = 0; t < 128; ++t) ASSERT_EQ(out[t], ((t % 64) ^ 32) * 1000 + 64 + 64) << headers << " thread " << t;
  }
}

TEST_F(MacaCute, Fp8TypesRoundAsTheOcpFormatsAndSayWhatTheyNeedUnderThePrelude) {
  const std::string args =
      "[[args]]\nname = \"x\"\ntype = \"float*\"\nshape = [256]\ninit = \"uniform(-8, 8)\"\n"
      "[[args]]\nname = \"e4\"\ntype = \"uint8*\"\nshape = [256]\noutput = true\n"
      "[[args]]\nname = \"e5\"\ntype = \"uint8*\"\nshape = [256]\noutput = true\n"
      "[[args]]\nname = \"back\"\ntype = \"float*\"\nshape = [256]\noutput = true\n";
  td::CheckResult r = td::test::check(manifest("fp8.maca", "fp8_round_trip", "cuda", "", args, 256), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty());
  std::vector<double> x = td::test::values(r, "x"), e4 = td::test::values(r, "e4"), e5 = td::test::values(r, "e5"),
                      back = td::test::values(r, "back");
  ASSERT_EQ(x.size(), 256u);
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(e4[i], td::floatToFp8E4M3(static_cast<float>(x[i]))) << x[i];
    ASSERT_EQ(e5[i], td::floatToFp8E5M2(static_cast<float>(x[i]))) << x[i];
    ASSERT_EQ(back[i], td::fp8E4M3ToFloat(static_cast<uint8_t>(e4[i]))) << x[i];
  }
  try {
    td::test::check(manifest("fp8.maca", "fp8_round_trip", "prelude", "", args, 256), "metax-c500");
    FAIL() << "maca_fp8.h compiled without the SDK's fp8 types";
  } catch (const td::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("compile with headers = cuda"), std::string::npos) << e.what();
  }
}

}  // namespace
