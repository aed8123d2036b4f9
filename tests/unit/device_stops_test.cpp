// Device assert, __trap and printf on the CPU executor, and the functions a kernel may not call.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;
namespace fs = std::filesystem;

TEST(DeviceStops, AFailedAssertNamesTheAssertionTheThreadAndTheLine) {
  CheckResult r = check(bundle("device_stops"), "nvidia-h200", {{"N", "20"}});
  const Finding* f = find(r, "device-assert", 7);
  ASSERT_NE(f, nullptr) << r.report.findings.size();
  EXPECT_NE(f->title.find("assert(i < n) failed in thread (20,0,0) of block (0,0,0)"), std::string::npos) << f->title;
  EXPECT_TRUE(f->fatal);
  EXPECT_EQ(r.report.findings.size(), 1u) << "the stop is the finding, not a fault beside it";
  EXPECT_EQ(r.report.exitCode(), 3);
  // The CPU executor runs a block's threads in turn, each to its end here: threads 0-19 stored, 20 stopped.
  EXPECT_EQ(values(r, "out")[19], 38.0);
  EXPECT_EQ(values(r, "out")[20], 0.0) << "nothing ran after the stop";
}

TEST(DeviceStops, TrapIsItsOwnFinding) {
  CheckResult r = check(bundle("device_stops"), "nvidia-h200", {{"TRAP_AT", "5"}});
  const Finding* f = find(r, "device-trap", 8);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("__trap() reached in thread (5,0,0)"), std::string::npos) << f->title;
  EXPECT_EQ(r.report.exitCode(), 3);
}

TEST(DeviceStops, CutlassArchitectureGuardSaysWhichArchitectureToLowerFor) {
  CheckResult r = check(bundle("device_stops"), "nvidia-h200", {{"GUARD_AT", "4"}});
  const Finding* f = find(r, "device-assert");
  ASSERT_NE(f, nullptr);
  bool advised = false;
  for (const std::string& n : f->notes) advised |= n.find("--tilelang-arch sm_89 or sm_90 for fp8") != std::string::npos;
  EXPECT_TRUE(advised) << "the kernel is right; its lowering's architecture is not";
  CheckResult user = check(bundle("device_stops"), "nvidia-h200", {{"N", "20"}});
  const Finding* plain = find(user, "device-assert");
  ASSERT_NE(plain, nullptr);
  for (const std::string& n : plain->notes) EXPECT_EQ(n.find("--tilelang-arch"), std::string::npos) << "a user's assert: " << n;
}

// Code the optimiser dropped (a stub without a return, used for its value) traps on the CPU executor and
// is named as undefined behaviour, not run into whatever follows it.
TEST(DeviceStops, ReachingDroppedCodeIsUndefinedBehaviour) {
  CheckResult r = check(bundle("missing_return"));
  const Finding* f = find(r, "kernel-fault");
  ASSERT_NE(f, nullptr) << r.report.findings.size();
  EXPECT_NE(f->title.find("reached code the compiler proved unreachable"), std::string::npos) << f->title;
  EXPECT_NE(f->notes.at(0).find("a missing return"), std::string::npos);
  EXPECT_EQ(r.report.exitCode(), 3);
}

TEST(DeviceStops, AKernelWhoseAssertionsHoldRunsCleanAndPrints) {
  Cli r = runCli("check " + bundle("device_stops"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("thread 3: n=32 in=3.00\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("no findings"), std::string::npos) << r.output;
  // With the JSON report on standard output, device printf goes to standard error.
  Cli json = runCli("check " + bundle("device_stops") + " --format json 2>/dev/null | cat");
  EXPECT_EQ(json.output.find("thread 3"), std::string::npos) << json.output;
  EXPECT_EQ(json.output.rfind("{", 0), 0u) << json.output;
}

// A kernel calling what no GPU has: the host's system, fork, open, syscall, or a function never defined.
// Each is exit 2 naming the function and the line, and nothing happens on the host.
TEST(DeviceStops, CallsToHostOrUndefinedFunctionsAreRefusedAtCompileTime) {
  fs::path dir = fs::temp_directory_path() / ("td_calls_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path marker = dir / "touched";
  struct Case { const char* decl; const char* call; const char* name; };
  const Case cases[] = {
      {"extern \"C\" __device__ int system(const char*);", "system(\"touch MARKER\")", "system"},
      {"extern \"C\" __device__ int fork();", "fork()", "fork"},
      {"extern \"C\" __device__ int open(const char*, int);", "open(\"MARKER\", 0100)", "open"},
      {"extern \"C\" __device__ long syscall(long, ...);", "syscall(2L, \"MARKER\", 0100)", "syscall"},
      {"__device__ float helper(float);", "helper(1.0f)", "helper(float)"},
      {"extern \"C\" __device__ int __nv_system(const char*);", "__nv_system(\"touch MARKER\")", "__nv_system"},
  };
  for (const Case& c : cases) {
    std::string call = c.call;
    if (size_t at = call.find("MARKER"); at != std::string::npos) call.replace(at, 6, marker.string());
    std::ofstream(dir / "k.cu") << c.decl << "\n__global__ void k(float* out) {\n  if (threadIdx.x == 0) " << call
                                << ";\n  out[threadIdx.x] = 1.0f;\n}\n";
    std::ofstream(dir / "bundle.toml") << "[kernel]\nsource = \"k.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [32]\n"
                                          "[[args]]\nname = \"out\"\ntype = \"float*\"\nshape = [32]\noutput = true\n";
    Cli r = runCli("check " + (dir / "bundle.toml").string());
    EXPECT_EQ(r.code, 2) << c.name << "\n" << r.output;
    EXPECT_NE(r.output.find(c.name), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(marker)) << c.name << " ran on the host";
  }
  fs::remove_all(dir);
}
