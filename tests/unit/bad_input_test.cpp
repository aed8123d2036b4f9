// Bad input gets exit code 2 and a message naming the file, the line and the problem.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"

using namespace td::test;
namespace fs = std::filesystem;

namespace {

const char* kKernel = R"(__global__ void k(float* out, int n) { if (threadIdx.x < n) out[threadIdx.x] = 1.0f; }
)";

const char* kGood = R"([kernel]
source = "k.cu"
entry = "k"
[params]
N = 32
[launch]
grid = [1]
block = ["N"]
[[args]]
name = "out"
type = "float*"
shape = ["N"]
output = true
[[args]]
name = "n"
type = "int32"
value = "N"
)";

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("td_bad_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    write("k.cu", kKernel);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  // Writes the good manifest with `from` replaced by `to` and runs check on it.
  Cli checkWith(const std::string& from, const std::string& to, const std::string& extra = "") {
    std::string m = kGood;
    if (!from.empty()) {
      size_t at = m.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      m.replace(at, from.size(), to);
    }
    write("bundle.toml", m);
    return runCli("check " + (dir_ / "bundle.toml").string() + " " + extra);
  }
  // Checks the good bundle on metax-c500 with a copy of its profile in which `from` became `to`.
  Cli checkWithMetaxProfileEdited(const std::string& from, const std::string& to) {
    fs::path profiles = dir_ / "profiles";
    fs::create_directories(profiles);
    std::ifstream in(std::string(TD_SOURCE_DIR) + "/profiles/metax-c500.toml");
    std::stringstream text;
    text << in.rdbuf();
    std::string p = text.str();
    size_t at = p.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    p.replace(at, from.size(), to);
    std::ofstream(profiles / "metax-c500.toml") << p;
    checkWith("", "");  // writes the good bundle
    return runCli("check " + (dir_ / "bundle.toml").string() + " --target metax-c500",
                  "TILE_DOCTOR_PROFILES=" + profiles.string());
  }
  fs::path dir_;
};

void expectBadInput(const Cli& r, const std::string& where, const std::string& what) {
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(where), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(what), std::string::npos) << r.output;
}

}  // namespace

TEST_F(BadInput, TheGoodManifestRunsClean) {
  Cli r = checkWith("", "");
  EXPECT_EQ(r.code, 0) << r.output;
}

TEST_F(BadInput, MalformedToml) { expectBadInput(checkWith("entry = \"k\"", "entry = \"k"), "bundle.toml:3", "bundle.toml"); }

TEST_F(BadInput, UnknownKeyWithItsLine) {
  expectBadInput(checkWith("output = true", "output = true\nshap = [1]"), "bundle.toml:14", "unknown key 'shap'");
}

TEST_F(BadInput, MissingSection) { expectBadInput(checkWith("[launch]\ngrid = [1]\nblock = [\"N\"]\n", ""), "bundle.toml", "missing [launch]"); }

TEST_F(BadInput, UnknownParameterInExpression) {
  expectBadInput(checkWith("block = [\"N\"]", "block = [\"NT\"]"), "bundle.toml:8", "unknown parameter 'NT'");
}

TEST_F(BadInput, UnknownParamOverride) { expectBadInput(checkWith("", "", "--param Q=3"), "--param Q", "no parameter 'Q'"); }

TEST_F(BadInput, EntryNotFound) {
  expectBadInput(checkWith("entry = \"k\"", "entry = \"kernel\""), "bundle.toml:3", "entry 'kernel' is not a __global__ function");
}

TEST_F(BadInput, ArgumentCountMismatch) {
  std::string m = kGood;
  expectBadInput(checkWith("[[args]]\nname = \"n\"\ntype = \"int32\"\nvalue = \"N\"\n", ""), "bundle.toml",
                 "takes 2 parameters");
}

TEST_F(BadInput, ArgumentTypeMismatch) {
  expectBadInput(checkWith("type = \"float*\"", "type = \"half*\""), "bundle.toml:9", "declared half* in the bundle");
  expectBadInput(checkWith("type = \"int32\"", "type = \"int64\""), "bundle.toml:14", "'n' is int64 in the bundle");
  expectBadInput(checkWith("type = \"int32\"\nvalue = \"N\"", "type = \"int32*\"\nshape = [1]"), "bundle.toml:14",
                 "is a buffer in the bundle");
}

TEST_F(BadInput, BufferSizeOverflows) {
  expectBadInput(checkWith("shape = [\"N\"]", "shape = [4294967296, 4294967296]"), "bundle.toml:12", "overflows 64 bits");
}

TEST_F(BadInput, BufferExceedsMemory) {
  expectBadInput(checkWith("shape = [\"N\"]", "shape = [1099511627776]"), "bundle.toml:9", "bytes of memory");
}

TEST_F(BadInput, KernelDoesNotCompile) {
  write("k.cu", "__global__ void k(float* out, int n) {\n  out[0] = undefined_name;\n}\n");
  Cli r = checkWith("", "");
  expectBadInput(r, "k.cu:2", "use of undeclared identifier 'undefined_name'");
}

TEST_F(BadInput, KernelDoesNotCompileInAHeader) {
  // The error is the header's: its file and line, not the kernel's file with the header's line.
  write("helper.h", "// a helper\n__device__ float twice(float x) {\n  return x * missing_factor;\n}\n");
  write("k.cu", "#include \"helper.h\"\n__global__ void k(float* out, int n) { out[0] = twice(1.0f); }\n");
  Cli r = checkWith("", "");
  expectBadInput(r, "helper.h:3", "use of undeclared identifier 'missing_factor'");
  EXPECT_EQ(r.output.find("k.cu:3"), std::string::npos) << r.output;
}

TEST_F(BadInput, UnknownTargetAndCheckFamily) {
  expectBadInput(checkWith("", "", "--target metax-x9"), "--target", "unknown target 'metax-x9'");
  expectBadInput(checkWith("", "", "--checks bounds,speling"), "--checks", "unknown check family 'speling'");
}

TEST_F(BadInput, UnwritableReportOrOutputFolder) {
  expectBadInput(checkWith("", "", "--save-outputs /proc/no/such"), "/proc/no/such", "cannot create the --save-outputs folder");
  expectBadInput(checkWith("", "", "--out /proc/no/such.json"), "/proc/no/such.json", "cannot write the report");
  Cli ok = checkWith("", "", "--out " + (dir_ / "r.json").string() + " --format json --save-outputs " + (dir_ / "o").string());
  EXPECT_EQ(ok.code, 0) << ok.output;
  EXPECT_TRUE(fs::exists(dir_ / "r.json"));
  EXPECT_TRUE(fs::exists(dir_ / "o" / "out.npy"));
}

TEST(Cli, TargetsListsEveryProfile) {
  Cli r = runCli("targets");
  EXPECT_EQ(r.code, 0);
  for (const char* t : {"metax-c500", "metax-c550", "nvidia-h100", "nvidia-h200", "nvidia-a100"})
    EXPECT_NE(r.output.find(t), std::string::npos) << t;
  EXPECT_NE(r.output.find("(default)"), std::string::npos);
}

TEST(Cli, JsonReportAndExitCodeOfFindings) {
  Cli r = runCli("check " + example("gemm_edge_bug") + " --format json");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("\"kind\": \"global-out-of-bounds\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"buffer\": \"C\""), std::string::npos);
  Cli h = runCli("check " + bundle("hang") + " --timeout 1");
  EXPECT_EQ(h.code, 3) << h.output;
  EXPECT_NE(h.output.find("kernel-hang"), std::string::npos);
}

TEST_F(BadInput, HeadersArchAndLineMap) {
  expectBadInput(checkWith("entry = \"k\"", "entry = \"k\"\nheaders = \"sdk\""), "bundle.toml:4",
                 "it must be \"prelude\", \"cuda\" or \"none\"");
  expectBadInput(checkWith("entry = \"k\"", "entry = \"k\"\narch = \"ampere\""), "bundle.toml:4", "must look like sm_80");
  expectBadInput(checkWith("entry = \"k\"", "entry = \"k\"\nline_map = \"k.lines\""), "bundle.toml:4",
                 "line_map file 'k.lines' not found");
  write("k.lines", "1\tkernel.py:3\nnot a line\n");
  expectBadInput(checkWith("entry = \"k\"", "entry = \"k\"\nline_map = \"k.lines\""), "k.lines:2",
                 "GENERATED_LINE<TAB>FILE:LINE");
}

TEST_F(BadInput, ScriptArgumentsNeedAScript) {
  expectBadInput(checkWith("", "", "-- --size 3"), "bundle.toml", "for TileLang scripts (kernel.py) only");
}

TEST_F(BadInput, ScriptWithoutTileLangSaysWhatToDo) {
  write("kernel.py", "print('hello')\n");
  Cli r = runCli("check " + (dir_ / "kernel.py").string(), "TILE_DOCTOR_PYTHON=/nonexistent/python");
  expectBadInput(r, "kernel.py", "set TILE_DOCTOR_PYTHON");
}

// Exit codes that never lie (issue 12): a run that would check nothing, or wait on nothing, is bad input.
TEST_F(BadInput, NoCheckFamilyOrNoTimeIsBadInput) {
  expectBadInput(checkWith("", "", "--checks ''"), "--checks", "names no check family");
  expectBadInput(checkWith("", "", "--checks ,"), "--checks", "names no check family");
  for (const char* t : {"0", "-1", "nan", "inf", "1e999", "soon"}) {
    Cli r = checkWith("", "", std::string("--timeout ") + t);
    EXPECT_EQ(r.code, 2) << t << ": " << r.output;
    EXPECT_NE(r.output.find("--timeout must be a positive number"), std::string::npos) << r.output;
  }
  EXPECT_EQ(checkWith("", "", "--timeout 0.5").code, 0);
  // A deadline past any sensible range once overflowed the clock and stopped the run at once as "took
  // longer than --timeout" (issue 32): refused, naming the longest wait.
  Cli huge = checkWith("", "", "--timeout 1e10");
  EXPECT_EQ(huge.code, 2) << huge.output;
  EXPECT_NE(huge.output.find("the longest tile-doctor waits"), std::string::npos) << huge.output;
  EXPECT_EQ(huge.output.find("longer than --timeout"), std::string::npos) << huge.output;
}

// A grid no GPU launches is bad input; one this target does not launch is the launch family's finding,
// never a truncated run that reports nothing.
TEST_F(BadInput, GridDimensionsBeyondTheTarget) {
  expectBadInput(checkWith("grid = [1]", "grid = [4294967296]"), "bundle.toml:7", "exceeds 2^32-1");
  Cli y = checkWith("grid = [1]", "grid = [1, 70000]", "--format json");
  EXPECT_EQ(y.code, 1) << y.output;
  EXPECT_NE(y.output.find("\"grid-limit\""), std::string::npos) << y.output;
  EXPECT_NE(y.output.find("grid.y = 70000 requested; nvidia-h200 allows 65535 blocks in y"), std::string::npos) << y.output;
  Cli z = checkWith("block = [\"N\"]", "block = [1, 1, 128]", "--format json");
  EXPECT_EQ(z.code, 1) << z.output;
  EXPECT_NE(z.output.find("block.z = 128 requested; nvidia-h200 allows 64 threads in z"), std::string::npos) << z.output;
}

// Values that would arrive changed, or initialisers that mean nothing, are bad input with their line.
TEST_F(BadInput, ValuesThatDoNotFitAndMeaninglessInitialisers) {
  expectBadInput(checkWith("value = \"N\"", "value = 1099511627776"), "bundle.toml:17", "does not fit");
  expectBadInput(checkWith("output = true", "output = true\ninit = \"uniform(1, -1)\""), "bundle.toml", "needs A < B");
  expectBadInput(checkWith("output = true", "output = true\ninit = \"normal(0, -1)\""), "bundle.toml", "needs STD > 0");
  expectBadInput(checkWith("output = true", "output = true\ninit = \"fill(1e999)\""), "bundle.toml", "not a finite number");
  EXPECT_EQ(checkWith("value = \"N\"", "value = -5").code, 0) << "a negative int32 fits";
}

// Nothing lost without a word: a report that cannot be written is an error, and a run that fails before
// its report leaves an earlier report whole (reports are written beside the file and renamed into place).
TEST_F(BadInput, ReportsAreWrittenWholeOrNotAtAll) {
  Cli full = checkWith("", "", "--out /dev/full");
  EXPECT_EQ(full.code, 2) << full.output;
  EXPECT_NE(full.output.find("cannot write the report"), std::string::npos) << full.output;
  std::string out = (dir_ / "report.json").string();
  ASSERT_EQ(checkWith("", "", "--format json --out " + out).code, 0);
  std::ifstream first(out);
  std::string good((std::istreambuf_iterator<char>(first)), std::istreambuf_iterator<char>());
  ASSERT_NE(good.find("\"findings\""), std::string::npos) << good;
  EXPECT_EQ(checkWith("", "", "--out " + out + " --param Q=3").code, 2);
  std::ifstream again(out);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), good)
      << "the failed run left the earlier report as it was (with --format json it writes its error there)";
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << "no staging file left: " << e.path();
}

// --format json always writes JSON: bad input is an error object with its file, line and message.
TEST_F(BadInput, JsonEvenForBadInput) {
  std::string out = (dir_ / "error.json").string();
  Cli r = checkWith("entry = \"k\"", "entry = \"nope\"", "--format json --out " + out);
  EXPECT_EQ(r.code, 2) << r.output;
  std::ifstream in(out);
  std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"kind\": \"bad-input\""), std::string::npos) << json;
  EXPECT_NE(json.find("bundle.toml"), std::string::npos) << json;
  EXPECT_NE(json.find("\"line\": 3"), std::string::npos) << json;
  EXPECT_NE(json.find("\"exit_code\": 2"), std::string::npos) << json;
  EXPECT_NE(r.output.find("tile-doctor: error:"), std::string::npos) << "stderr still says it";
}

// Options CLI11 rejects are bad input too, and --format json still gets its JSON error object.
TEST_F(BadInput, JsonEvenForARejectedCommandLine) {
  std::string out = (dir_ / "options.json").string();
  for (const std::string& extra : {"--format json --out " + out + " --no-such-option",
                                   "--format=json --out=" + out + " --repeat 0"}) {
    fs::remove(out);
    Cli r = checkWith("", "", extra);
    EXPECT_EQ(r.code, 2) << extra << ": " << r.output;
    std::ifstream in(out);
    std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(json.find("\"kind\": \"bad-input\""), std::string::npos) << extra << ": " << json;
    EXPECT_NE(json.find("\"file\": \"command line\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"exit_code\": 2"), std::string::npos) << json;
  }
  Cli text = checkWith("", "", "--no-such-option");
  EXPECT_EQ(text.code, 2);
  EXPECT_EQ(text.output.find("\"error\""), std::string::npos) << "text mode writes no JSON: " << text.output;
}

// A TMA descriptor (tma = {...}) that could not be built, or would reach past its buffer, is bad input at
// its line; so is one the kernel does not take as a descriptor.
TEST_F(BadInput, TmaDescriptorsThatCannotBeOrReachPastTheirBuffer) {
  auto tma = [](const std::string& fields) { return "output = true\ntma = { " + fields + " }"; };
  const std::string rest = "element_strides = [1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0";
  expectBadInput(checkWith("output = true", tma("data_type = 7, dims = [32], strides = [4], box = [300], " + rest)),
                 "bundle.toml:14", "box[0] = 300 is outside 1..256");
  expectBadInput(checkWith("output = true", tma("data_type = 7, dims = [64], strides = [4], box = [32], " + rest)),
                 "bundle.toml:14", "it reaches 256 bytes; 'out' has 128");
  expectBadInput(checkWith("output = true", tma("data_type = 6, dims = [32], strides = [2], box = [32], " + rest)),
                 "bundle.toml:14", "data_type 6 has 2-byte elements; 'out' is float");
  // Sizes whose products overflow 64 bits are refused, not wrapped into a reach that looks small.
  expectBadInput(checkWith("output = true", tma("data_type = 7, dims = [2, 4294967296], strides = [4, "
                                               "1099511627776], box = [1, 1], element_strides = [1, 1], interleave = 0, "
                                               "swizzle = 0, l2_promotion = 0, oob_fill = 0")),
                 "bundle.toml:14", "it reaches 18446744073709551615 bytes");
  expectBadInput(checkWith("value = \"N\"", "value = \"N\"\ntma = { data_type = 7 }"), "bundle.toml:18",
                 "'tma' applies to buffers only");
  expectBadInput(checkWith("output = true", tma("data_type = 7, dims = [32], strides = [4], box = [32], " + rest)),
                 "bundle.toml:9", "passed as a TMA descriptor (tma) in the bundle but the kernel's parameter 1 is 'float*'");
}

// --timeout bounds tile-doctor's own work too: filling a 2 GiB buffer with normal() at --timeout 0.5 stops
// within about that time (exit 3, "timeout" in JSON), not after the 15+ s the fill takes.
TEST_F(BadInput, TheParentsOwnWorkStopsAtTheTimeout) {
  std::string out = (dir_ / "timeout.json").string();
  auto start = std::chrono::steady_clock::now();
  Cli r = checkWith("shape = [\"N\"]\noutput = true", "shape = [536870912]\noutput = true\ninit = \"normal(0, 1)\"",
                    "--timeout 0.5 --format json --out " + out);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.output.find("available") != std::string::npos) GTEST_SKIP() << "no 2 GiB available here: " << r.output;
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("preparing the inputs of kernel k took longer than --timeout (0.5 s)"), std::string::npos)
      << r.output;
  EXPECT_LT(seconds, 6.0) << "stopped near the deadline (compile included)";
  std::ifstream in(out);
  std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"kind\": \"timeout\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"exit_code\": 3"), std::string::npos) << json;
}

// Clang runs in a child process: its crash or its fatal error on a source is exit 2 naming the file, and
// tile-doctor itself goes on to say so. (A clang that never ends is stopped: IsolatedRun.* below.)
TEST_F(BadInput, ClangCrashingOnTheSourceIsBadInputNamingTheFile) {
  for (const char* pragma : {"parser_crash", "llvm_fatal_error"}) {
    write("k.cu", std::string("#pragma clang __debug ") + pragma +
                      "\n__global__ void k(float* out, int n) { out[0] = 1.0f; }\n");
    Cli r = checkWith("", "");
    EXPECT_EQ(r.code, 2) << pragma << "\n" << r.output;
    EXPECT_NE(r.output.find("k.cu"), std::string::npos) << pragma << "\n" << r.output;
    EXPECT_NE(r.output.find("clang"), std::string::npos) << pragma << "\n" << r.output;
  }
}

// Inputs sized to crash a recursive parser, counts past 64 bits, paths that loop: each is exit 2 with
// its file, line or option, never a signal or an internal error.
TEST_F(BadInput, HugeOrMalformedValuesAreBadInputNotACrash) {
  expectBadInput(checkWith("output = true", "output = true\ninit = \"" + std::string(50000, 'x') + "\""),
                 "bundle.toml:14", "50000 characters long");
  expectBadInput(checkWith("[kernel]", "[kernel]\narch = \"" + std::string(100000, 's') + "\""), "bundle.toml:2",
                 "(100000 characters)");
  expectBadInput(checkWith("", "", "--schedule random:99999999999999999999"), "--schedule", "fit 64 bits");
  expectBadInput(checkWith("", "", "--blocks sample:18446744073709551615"), "--blocks", "at most 12 digits");
  expectBadInput(checkWith("", "", "--blocks sample:-1"), "--blocks", "sample:N takes a number");
  Cli capacity = checkWith("", "", "--channel-capacity 4294967295");
  EXPECT_EQ(capacity.code, 2) << capacity.output;
  fs::create_symlink(dir_ / "loop_b", dir_ / "loop_a");
  fs::create_symlink(dir_ / "loop_a", dir_ / "loop_b");
  Cli loop = runCli("check " + (dir_ / "loop_a").string());
  EXPECT_EQ(loop.code, 2) << loop.output;
  EXPECT_NE(loop.output.find("loop_a"), std::string::npos) << loop.output;
}

// A sampled huge grid costs its boundary, not a walk over every block.
TEST_F(BadInput, SamplingAHugeGridIsQuick) {
  auto t0 = std::chrono::steady_clock::now();
  Cli r = checkWith("grid = [1]", "grid = [300000, 300000]", "--blocks sample:4 --checks bounds");
  EXPECT_NE(r.code, 4) << r.output;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 60.0) << r.output;
}

// A .npy header that lies (a negative or 30-digit dimension, a 60,000-character descr), a FIFO given as
// the manifest or an init file: exit 2 naming the file, nothing read forever.
TEST_F(BadInput, NpyHeadersThatLieAndFilesThatAreNoFiles) {
  auto npy = [&](const std::string& name, const std::string& header) {
    std::string h = header;
    std::ofstream f(dir_ / name, std::ios::binary);
    f << "\x93NUMPY" << char(1) << char(0);
    uint16_t n = static_cast<uint16_t>(h.size());
    f.write(reinterpret_cast<const char*>(&n), 2);
    f << h;
  };
  npy("neg.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (-32,), }\n");
  expectBadInput(checkWith("output = true", "init = \"file('neg.npy')\""), "bundle.toml", "not a whole number");
  npy("huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (999999999999999999999999999999,), }\n");
  expectBadInput(checkWith("output = true", "init = \"file('huge.npy')\""), "bundle.toml", "too large");
  npy("descr.npy", "{'descr': '" + std::string(60000, 'f') + "', 'fortran_order': False, 'shape': (32,), }\n");
  Cli d = checkWith("output = true", "init = \"file('descr.npy')\"");
  EXPECT_EQ(d.code, 2) << d.output.substr(0, 300);
  ASSERT_EQ(::mkfifo((dir_ / "fifo.npy").c_str(), 0600), 0);
  expectBadInput(checkWith("output = true", "init = \"file('fifo.npy')\""), "bundle.toml", "not a regular file");
  ASSERT_EQ(::mkfifo((dir_ / "fifo.toml").c_str(), 0600), 0);
  expectBadInput(runCli("check " + (dir_ / "fifo.toml").string()), "fifo.toml", "not a regular file");
}

// A path that is not UTF-8 (paths are bytes) still gives the JSON report and its finding: the byte
// becomes U+FFFD, the report is not lost to an internal error.
TEST_F(BadInput, JsonReportOfANonUtf8PathKeepsTheFinding) {
  fs::path odd = dir_ / "k\xff";
  fs::create_directories(odd);
  std::ofstream(odd / "k.cu") << "__global__ void k(float* out, int n) { out[threadIdx.x + 40] = 1.0f; }\n";
  std::string m = kGood;
  std::ofstream(odd / "bundle.toml") << m;
  Cli r = runCli("check " + (odd / "bundle.toml").string() + " --format json 2>/dev/null | cat");
  EXPECT_NE(r.output.find("\"kind\": \"global-out-of-bounds\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\xef\xbf\xbd"), std::string::npos) << "the byte as U+FFFD";
}

// Buffers the target could hold but this machine cannot (what is available now, cgroup limits included)
// are refused before anything is allocated, not left to the OOM killer.
TEST_F(BadInput, BuffersBeyondWhatTheHostHasAvailable) {
  // 120 GB of floats: within the H200's 141 GB; skipped on a machine that has that much free.
  Cli r = checkWith("shape = [\"N\"]", "shape = [30000000000]");
  if (r.code == 0) GTEST_SKIP() << "this machine has 120 GB available";
  expectBadInput(r, "bundle.toml", "available (");
}

// A profile's `unsupported` list names features tile-doctor can find; anything else is bad input naming
// the profile's file and line (a typo would otherwise silently check nothing).
TEST_F(BadInput, ProfileListingAnUnknownFeature) {
  expectBadInput(checkWithMetaxProfileEdited("\"cluster\"", "\"clusters\""), "metax-c500.toml:",
                 "unsupported lists 'clusters'");
}

TEST_F(BadInput, ProfileWithANonPositiveLaunchBoundsDefault) {
  expectBadInput(checkWithMetaxProfileEdited("default_launch_bounds = 512", "default_launch_bounds = 0"),
                 "metax-c500.toml:", "default_launch_bounds must be positive");
}

// Profiles are read as manifests are (frontend/toml_reader.h): a value of the wrong type or a key tile-doctor
// does not know is bad input at its line, not a zero or a silently ignored setting.
TEST_F(BadInput, ProfileWithAQuotedCountOrAMisspelledKey) {
  expectBadInput(checkWithMetaxProfileEdited("shared_per_block = 65536", "shared_per_block = \"65536\""),
                 "metax-c500.toml:10", "'shared_per_block' in the profile must be an integer");
  expectBadInput(checkWithMetaxProfileEdited("shared_per_block = 65536", "shared_per_blok = 65536"),
                 "metax-c500.toml:10", "unknown key 'shared_per_blok' in the profile");
  expectBadInput(checkWithMetaxProfileEdited("warp_size = 64", "warp_size = 48"), "metax-c500.toml:9",
                 "warp_size must be 32 or 64");
}

TEST_F(BadInput, UnknownDialect) {
  expectBadInput(checkWith("entry = \"k\"", "entry = \"k\"\ndialect = \"rocm\""), "bundle.toml:4",
                 "kernel.dialect is 'rocm'; it must be \"cuda\", \"hip\" or \"maca\"");
}

TEST_F(BadInput, NegativeSharedOnTarget) {
  expectBadInput(checkWith("block = [\"N\"]", "block = [\"N\"]\nshared_on_target = -4"), "bundle.toml:9",
                 "launch.shared_on_target must not be negative");
}

// A stand-in lowering's source fits; the target's own pipeline (launch.shared_on_target) does not.
TEST_F(BadInput, SharedOnTargetIsWhatTheLimitChecks) {
  Cli r = checkWith("block = [\"N\"]", "block = [\"N\"]\nshared = 1024\nshared_on_target = 98304", "--target metax-c500");
  EXPECT_EQ(r.code, 1) << "a finding: the launch is not run" << r.output;
  EXPECT_NE(r.output.find("98304 bytes of shared memory per block requested; metax-c500 allows 65536"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("bundle.toml:10"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the stand-in source lowered here for the same wave size allocates 1024"), std::string::npos)
      << r.output;
}

TEST_F(BadInput, ProfileIgnoringAnUnknownStatement) {
  expectBadInput(checkWithMetaxProfileEdited("\"partial-barrier\"", "\"named-barrier\""), "metax-c500.toml:",
                 "ignores lists 'named-barrier', not one of: partial-barrier");
}

TEST_F(BadInput, StorageElementsMustBePositiveAndForBuffersOnly) {
  expectBadInput(checkWith("shape = [\"N\"]", "shape = [\"N\"]\nelements = \"N - N\""), "bundle.toml:13",
                 "elements of 'out' is 0; it must be positive");
  expectBadInput(checkWith("value = \"N\"", "value = \"N\"\nelements = 4"), "bundle.toml:18",
                 "'elements' applies to buffers only");
}

// `elements` (a strided view's storage): the allocation ends there, the coordinates stay the shape's.
TEST_F(BadInput, StorageShorterThanTheShapeEndsTheAllocation) {
  Cli r = checkWith("shape = [\"N\"]", "shape = [2, 16]\nelements = \"N - 1\"", "--format json");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("\"coordinates\": [\n        1,\n        15\n      ]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("of a strided view's storage"), std::string::npos) << r.output;
}

// A manifest's flags cannot load code into tile-doctor or write files (issue 32): each refused at its line
// with the flag named; the flags kernel builds use still pass.
TEST_F(BadInput, FlagsThatLoadCodeOrWriteFilesAreRefused) {
  for (const char* flag : {"\"-fplugin=./evil.so\"", "\"-fpass-plugin=./evil.so\"", "\"-Xclang\", \"-load\"",
                           "\"-MD\", \"-MF\", \"/tmp/td-planted\"", "\"-Wp,-MD,/tmp/td-planted\"", "\"-I/etc\"",
                           "\"-I\", \"../..\"", "\"-include\", \"/etc/passwd\"", "\"--save-temps\""}) {
    Cli r = checkWith("entry = \"k\"", std::string("entry = \"k\"\nflags = [") + flag + "]");
    expectBadInput(r, "bundle.toml:4", "a manifest's flags may be");
  }
  std::filesystem::create_directories(dir_ / "include");
  write("include/extra.h", "#define EXTRA 1\n");
  Cli ok = checkWith("entry = \"k\"", "entry = \"k\"\nflags = [\"-DX=1\", \"-UY\", \"-std=c++17\", \"-O2\", "
                                      "\"-Wno-unused\", \"-Iinclude\", \"-include\", \"include/extra.h\"]");
  EXPECT_EQ(ok.code, 0) << ok.output;
}
