// Issue 32's reproducers, one test a class: input that never ends, files of another kind where a history or
// an output goes, planted links, characters a report format may not hold, a kernel naming tile-doctor's own
// functions, and a many-input run in which one input fails inside tile-doctor. Each must end in the right
// exit code, with every other input's findings still reported (and recorded).
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend/compiler.h"
#include "temp_folder_test.h"
#include "test_support.h"

namespace fs = std::filesystem;
using td::test::Cli;
using td::test::runCli;

namespace {

const std::string kOverflow = td::test::bundle("shared_overflow");  // one shared-out-of-bounds (entry stage_two)
const std::string kBarrier = td::test::bundle("missing_barrier");  // two races and an uninitialised read (rotate)
const std::string kReduce = td::test::bundle("reduce");             // clean

class HostileInputs : public td::test::TempFolderTest {
 protected:
  void write(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // A bundle of one kernel (`body` inside `__global__ void k(float* out)`) in this test's folder.
  std::string kernelBundle(const std::string& name, const std::string& body, const std::string& launch = "",
                           const std::string& before = "") const {
    write(name + ".cu", before + "__global__ void k(float* out) {\n" + body + "\n}\n");
    write(name + ".toml", fmt::format("[kernel]\nsource = \"{}.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [32]\n{}"
                                      "[[args]]\nname = \"out\"\ntype = \"float*\"\nshape = [32]\noutput = true\n",
                                      name, launch));
    return path(name + ".toml");
  }
};

std::multiset<std::string> kindsOf(const nlohmann::json& report) {
  std::multiset<std::string> k;
  for (const nlohmann::json& i : report["inputs"])
    if (i["report"].contains("findings"))
      for (const nlohmann::json& f : i["report"]["findings"]) k.insert(f["kind"].get<std::string>());
  return k;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

// One input failing inside tile-doctor is that input's outcome: the others are checked, reported in every
// format and recorded; the exit code is the worst outcome (4).
TEST_F(HostileInputs, OneInputsInternalErrorLosesNoOtherInputsReport) {
  const std::string inputs = fmt::format("{} {} {} --jobs 2", kOverflow, kBarrier, kReduce);
  const std::string inject = "TILE_DOCTOR_TEST_INTERNAL_ERROR=rotate";
  Cli json = runCli(fmt::format("check {} --format json --out {} --db {}", inputs, path("r.json"), path("h.sqlite")), inject);
  EXPECT_EQ(json.code, 4) << json.output;
  nlohmann::json r = nlohmann::json::parse(read("r.json"), nullptr, false);
  ASSERT_TRUE(r.is_object()) << read("r.json");
  ASSERT_EQ(r["inputs"].size(), 3u);
  EXPECT_EQ(kindsOf(r), (std::multiset<std::string>{"shared-out-of-bounds"}));
  int internal = 0;
  for (const nlohmann::json& i : r["inputs"])
    if (i["report"].contains("error")) internal += i["report"]["error"]["kind"] == "internal";
  EXPECT_EQ(internal, 1);
  // The history holds all three checks, the failed one with its error.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path("h.sqlite").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "SELECT COUNT(*), SUM(error <> ''), SUM(exit_code = 4) FROM checks", -1, &s, nullptr);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(s, 0), 3);
  EXPECT_EQ(sqlite3_column_int(s, 1), 1);
  EXPECT_EQ(sqlite3_column_int(s, 2), 1);
  sqlite3_finalize(s);
  sqlite3_close(db);
  // SARIF: the finding as a result, the failed input as the tool's notification.
  Cli sarif = runCli(fmt::format("check {} --format sarif --out {}", inputs, path("r.sarif")), inject);
  EXPECT_EQ(sarif.code, 4) << sarif.output;
  nlohmann::json log = nlohmann::json::parse(read("r.sarif"), nullptr, false);
  ASSERT_TRUE(log.is_object());
  EXPECT_EQ(log["runs"][0]["results"].size(), 1u);
  const nlohmann::json& invocation = log["runs"][0]["invocations"][0];
  EXPECT_EQ(invocation["executionSuccessful"], false);
  ASSERT_EQ(invocation["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(invocation["toolExecutionNotifications"][0]["descriptor"]["id"], "internal");
  // JUnit: an errored case among the others; text: the error and the other inputs' findings.
  Cli junit = runCli(fmt::format("check {} --format junit", inputs), inject);
  EXPECT_EQ(occurrences(junit.output, "<error "), 1u) << junit.output;
  EXPECT_EQ(occurrences(junit.output, "<failure "), 1u) << junit.output;
  Cli text = runCli("check " + inputs, inject);
  EXPECT_NE(text.output.find("internal error"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("shared-out-of-bounds"), std::string::npos) << text.output;
}

// A FIFO or a device never ends: refused as bad input, at once, wherever a file is read.
TEST_F(HostileInputs, InputsThatNeverEndAreRefused) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  for (const std::string& option : {"--suppressions", "--baseline"}) {
    for (const std::string& file : {path("fifo"), std::string("/dev/zero")}) {
      Cli r = runCli(fmt::format("check {} {} {}", kReduce, option, file));
      EXPECT_EQ(r.code, 2) << option << " " << file << ": " << r.output;
      EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
    }
  }
  Cli db = runCli(fmt::format("check {} --db {}", kReduce, path("fifo")));
  EXPECT_EQ(db.code, 2) << db.output;
  EXPECT_NE(db.output.find("not a regular file"), std::string::npos) << db.output;
  std::string manifest = kernelBundle("fifo_source", "out[threadIdx.x] = 1.0f;");
  fs::remove(path("fifo_source.cu"));
  ASSERT_EQ(::mkfifo(path("fifo_source.cu").c_str(), 0600), 0);
  Cli source = runCli("check " + manifest);
  EXPECT_EQ(source.code, 2) << source.output;
  EXPECT_NE(source.output.find("fifo_source.toml:2"), std::string::npos) << source.output;
  // Files far larger than any such file: refused by size, not read into memory.
  { std::ofstream big(path("big.supp")); big.seekp((16 << 20) + 1); big << '\n'; }
  Cli big = runCli(fmt::format("check {} --suppressions {}", kReduce, path("big.supp")));
  EXPECT_EQ(big.code, 2) << big.output;
  EXPECT_NE(big.output.find("over the 16 MiB"), std::string::npos) << big.output;
}

// A history database of another schema is bad input naming it, before anything runs.
TEST_F(HostileInputs, AHistoryOfAnotherSchemaIsBadInput) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path("other.sqlite").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE runs (id INTEGER PRIMARY KEY, what TEXT)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  Cli r = runCli(fmt::format("check {} --db {}", kOverflow, path("other.sqlite")));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("other.sqlite"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("has no column"), std::string::npos) << r.output;
}

// Outputs are written beside their names and renamed into place: a link planted at the name is replaced,
// and the file it pointed at is never written; an output that cannot be written is exit 2 naming it.
TEST_F(HostileInputs, OutputsAreNotWrittenThroughAPlantedLink) {
  write("victim", "untouched");
  fs::create_directories(path("outputs"));
  fs::create_symlink(path("victim"), path("outputs/out.npy"));
  fs::create_symlink(path("victim"), path("report.json"));
  std::string manifest = kernelBundle("plain", "out[threadIdx.x] = 2.0f;");
  Cli r = runCli(fmt::format("check {} --save-outputs {} --format json --out {}", manifest, path("outputs"), path("report.json")));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read("victim"), "untouched");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path("outputs/out.npy"))));
  EXPECT_EQ(read("outputs/out.npy").substr(1, 5), "NUMPY");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path("report.json"))));
  // --save-inputs into a folder that cannot hold the file (a folder stands at the array's name).
  fs::create_directories(path("inputs/out.npy"));
  Cli in = runCli(fmt::format("check {} --save-inputs {}", manifest, path("inputs")));
  EXPECT_EQ(in.code, 2) << in.output;
  EXPECT_NE(in.output.find("out.npy"), std::string::npos) << in.output;
}

// JUnit holds only characters XML 1.0 may hold: a noncharacter or a byte that is not UTF-8 in a name
// becomes U+FFFD.
TEST_F(HostileInputs, JunitHoldsOnlyWhatXmlMayHold) {
  std::string folder = path("odd\xEF\xBF\xBE\xFFname");
  fs::create_directories(folder);
  fs::copy(fs::path(kOverflow).parent_path(), folder, fs::copy_options::recursive);
  Cli r = runCli(fmt::format("check '{}/bundle.toml' --format junit", folder));
  EXPECT_EQ(r.code, 1) << r.output;
  size_t xml = r.output.find("<?xml");
  ASSERT_NE(xml, std::string::npos) << r.output;
  std::string doc = r.output.substr(xml);
  EXPECT_EQ(doc.find("\xEF\xBF\xBE"), std::string::npos);
  EXPECT_EQ(doc.find('\xFF'), std::string::npos);
  EXPECT_NE(doc.find("odd\xEF\xBF\xBD\xEF\xBF\xBDname"), std::string::npos) << doc;
}

// A kernel naming a function of tile-doctor's own prefix that nothing defines is the kernel's error, at its
// line; so is a host function whose address the kernel takes, and tile-doctor's own control block.
TEST_F(HostileInputs, UndefinedFunctionsOfAnyNameAreTheKernelsError) {
  write("decl.h", "extern \"C\" __device__ float __td_not_a_runtime_function(float);\n"
                  "extern \"C\" __device__ char* getenv(const char*);\n");
  std::string own = kernelBundle("own", "  out[threadIdx.x] = __td_not_a_runtime_function(1.0f);", "", "#include \"decl.h\"\n");
  Cli r = runCli("check " + own);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("own.cu:3"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("__td_not_a_runtime_function"), std::string::npos) << r.output;
  std::string address = kernelBundle("address", "  out[threadIdx.x] = (float)(unsigned long long)&getenv;", "",
                                     "#include \"decl.h\"\n");
  Cli a = runCli("check " + address);
  EXPECT_EQ(a.code, 2) << a.output;
  EXPECT_NE(a.output.find("getenv"), std::string::npos) << a.output;
  // tile-doctor's control block, named to find the record channel and erase the findings in it.
  std::string ctl = kernelBundle("ctl", "  out[threadIdx.x + 32] = 1.0f;\n  __td_ctl.channel[1] = 0;", "",
                                 "struct fake_ctl { unsigned a, b, c, d; unsigned* channel; };\n"
                                 "extern \"C\" __device__ fake_ctl __td_ctl;\n");
  Cli c = runCli("check " + ctl);
  EXPECT_EQ(c.code, 2) << c.output;
  EXPECT_NE(c.output.find("ctl.cu:5"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("__td_ctl"), std::string::npos) << c.output;
}

// Right words: a kernel that spins without any barrier is not "waiting at barriers"; a dynamic shared
// window past 32 bits is refused, not wrapped into a false out-of-bounds at s[0].
TEST_F(HostileInputs, HangsAndHugeSharedWindowsAreNamedForWhatTheyAre) {
  std::string spin = kernelBundle("spin", "  volatile float* p = out;\n  while (p[0] == 0.0f) {}\n");
  Cli s = runCli("check " + spin + " --timeout 2 --format json");
  EXPECT_EQ(s.code, 3) << s.output;
  EXPECT_EQ(s.output.find("barriers that never complete"), std::string::npos) << s.output;
  std::string shared = kernelBundle("huge_shared", "  extern __shared__ float s[];\n  s[threadIdx.x] = 1.0f;\n"
                                                   "  out[threadIdx.x] = s[threadIdx.x];",
                                    "shared = 4294967297\n");
  Cli h = runCli("check " + shared + " --checks bounds");
  EXPECT_EQ(h.code, 6) << h.output;
  EXPECT_EQ(h.output.find("shared-out-of-bounds"), std::string::npos) << h.output;
  EXPECT_NE(h.output.find("4294967297"), std::string::npos) << h.output;
}

// Valid CUDA is not refused for what it includes or declares: <cassert> with assert, <cstdio>, and printf
// declared by hand as the CUDA headers declare it — in the default headers and the SDK's.
TEST_F(HostileInputs, PrintfDeclaredByHandAndAssertAreValidCuda) {
  const std::string before = "#include <cassert>\n#include <cstdio>\nextern \"C\" __device__ int printf(const char*, ...);\n";
  std::string manifest = kernelBundle("declared", "  assert(threadIdx.x < 32);\n  if (threadIdx.x == 0) printf(\"seen %d\\n\", 5);\n"
                                                  "  out[threadIdx.x] = 1.0f;", "", before);
  Cli r = runCli("check " + manifest);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("seen 5"), std::string::npos) << r.output;
  if (td::findCudaSdk().empty()) GTEST_SKIP() << "no CUDA SDK headers for headers = \"cuda\"";
  write("declared_sdk.toml", read("declared.toml").insert(read("declared.toml").find("[launch]"), "headers = \"cuda\"\n"));
  Cli sdk = runCli("check " + path("declared_sdk.toml"));
  EXPECT_EQ(sdk.code, 0) << sdk.output;
}

// A bundle cannot make the compile read the host's files into its diagnostics: an absolute #include, a
// link inside the bundle leading out, an include folder or a source outside the bundle are refused (exit 2)
// and no byte of the file reaches the report. A folder the user names with --include-root is allowed.
TEST_F(HostileInputs, TheBuildReadsNothingOutsideTheBundle) {
  const std::string secret = "TD_SECRET_MARKER=xyzzy-4711";
  auto leaks = [&](const Cli& r) { return r.output.find("xyzzy-4711") != std::string::npos; };
  Cli absolute = runCli("check " + kernelBundle("absolute", "out[0] = 1;", "", "#include \"/proc/self/environ\"\n"), secret);
  EXPECT_EQ(absolute.code, 2) << absolute.output;
  EXPECT_FALSE(leaks(absolute)) << absolute.output;

  // A file of text outside the bundle's folder (a checkout's .git/config holding a token): its line would be
  // quoted in clang's error.
  write("credentials", "token = xyzzy-4711\n");
  fs::create_directories(path("b"));
  write("b/k.cu", "#include \"" + path("credentials") + "\"\n__global__ void k(float* out) { out[0] = 1; }\n");
  write("b/b.toml", "[kernel]\nsource = \"k.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [32]\n"
                    "[[args]]\nname = \"out\"\ntype = \"float*\"\nshape = [32]\noutput = true\n");
  Cli textFile = runCli("check " + path("b/b.toml"));
  EXPECT_EQ(textFile.code, 2) << textFile.output;
  EXPECT_FALSE(leaks(textFile)) << textFile.output;
  EXPECT_NE(textFile.output.find("did not let clang read " + path("credentials")), std::string::npos) << textFile.output;

  fs::create_symlink("/proc/self/environ", path("evil.h"));
  Cli link = runCli("check " + kernelBundle("link", "out[0] = 1;", "", "#include \"evil.h\"\n"), secret);
  EXPECT_EQ(link.code, 2) << link.output;
  EXPECT_FALSE(leaks(link)) << link.output;

  const std::string outside = kernelBundle("folder", "out[0] = 1;");
  std::string text = read("folder.toml");
  write("folder.toml", text.replace(text.find("entry"), 0, "include = [\"/etc\"]\n"));
  Cli folder = runCli("check " + outside);
  EXPECT_EQ(folder.code, 2) << folder.output;
  EXPECT_NE(folder.output.find("folder.toml:3: kernel.include '/etc' lies outside the bundle's folder"), std::string::npos)
      << folder.output;

  fs::create_directories(path("inner"));
  write("inner/b.toml", "[kernel]\nsource = \"../shared.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [32]\n"
                        "[[args]]\nname = \"out\"\ntype = \"float*\"\nshape = [32]\noutput = true\n");
  write("shared.cu", "__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }\n");
  Cli up = runCli("check " + path("inner/b.toml"));
  EXPECT_EQ(up.code, 2) << up.output;
  EXPECT_NE(up.output.find("b.toml:2: kernel.source"), std::string::npos) << up.output;
  EXPECT_NE(up.output.find("--include-root"), std::string::npos) << up.output;
  Cli allowed = runCli("check " + path("inner/b.toml") + " --include-root " + dir_.string());
  EXPECT_EQ(allowed.code, 0) << allowed.output;
  Cli byEnvironment = runCli("check " + path("inner/b.toml"), "TILE_DOCTOR_INCLUDE_ROOTS=" + dir_.string());
  EXPECT_EQ(byEnvironment.code, 0) << byEnvironment.output;
}
