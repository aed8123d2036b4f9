// Containment (instrument/containment_pass, runtime/device/td_contain.cuh): a kernel's accesses stay inside
// its own memory on the CPU executor whichever families run. Wild ones — a store computed past its buffer,
// a read through an integer, an overrun local array, a call through a forged pointer, a printf of the
// host's memory — are reported as wild-access and skipped; correct kernels that use every kind of memory
// a kernel may (constant tables, device variables, local arrays, function pointers, structs by value,
// printf) report nothing.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fstream>

#include "temp_folder_test.h"
#include "test_support.h"

namespace {

class Containment : public td::test::TempFolderTest {
 protected:
  // A bundle of kernel `k(float* out, long long x)`: `out` 64 floats (zero), x the parameter X.
  std::string kernel(const std::string& name, const std::string& source, int threads = 64) const {
    std::ofstream(path(name + ".cu")) << source;
    std::ofstream(path(name + ".toml")) << fmt::format(
        "[kernel]\nsource = \"{}.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [{}]\n"
        "[[args]]\nname = \"out\"\ntype = \"float*\"\nshape = [64]\ninit = \"zeros\"\noutput = true\n"
        "[[args]]\nname = \"x\"\ntype = \"int64\"\nvalue = \"X\"\n[params]\nX = 0\n",
        name, threads);
    return path(name + ".toml");
  }
  td::CheckResult run(const std::string& bundle, const std::string& checks, long long x) const {
    td::CheckRequest r;
    r.bundlePath = bundle;
    r.target = "nvidia-h200";
    r.checks = checks;
    r.params = {{"X", std::to_string(x)}};
    r.launch.jobs = 2;
    r.launch.timeoutSeconds = 60;
    return td::runCheck(r);
  }
};

std::string kinds(const td::CheckResult& r) {
  std::string k;
  for (const td::Finding& f : r.report.findings) k += (k.empty() ? "" : " ") + f.kind;
  return k;
}

const char* kStoreAt = R"(
__global__ void k(float* out, long long x) {
  float* p = (float*)((char*)out + x);
  p[threadIdx.x] = 42.0f;
}
)";

}  // namespace

// The reproducer of issue 32's containment gap: with the bounds family off, stores at out + x landed next to
// the buffer silently (exit 0) or faulted. Every one is now a wild-access naming 'out', and skipped.
TEST_F(Containment, WildStoresAreReportedWithTheBoundsFamilyOff) {
  const std::string b = kernel("store", kStoreAt);
  for (long long x : {-(1ll << 20), -4096ll, -256ll, 4096ll, 1ll << 26}) {
    td::CheckResult r = run(b, "race", x);
    ASSERT_EQ(kinds(r), "wild-access") << "x = " << x;
    const td::Finding& f = r.report.findings[0];
    EXPECT_EQ(f.buffer, "out") << f.title;
    EXPECT_EQ(f.access, "write");
    EXPECT_EQ(f.count, 64u);
    EXPECT_EQ(f.loc.line, 4u);
    EXPECT_NE(f.title.find(x < 0 ? "before the start of 'out'" : "past the end of 'out'"), std::string::npos) << f.title;
  }
  // Far from every buffer, no buffer is named.
  td::CheckResult far = run(b, "race", 1ll << 36);
  ASSERT_EQ(kinds(far), "wild-access");
  EXPECT_EQ(far.report.findings[0].buffer, "");
  EXPECT_NE(far.report.findings[0].title.find("none within 1 GiB"), std::string::npos) << far.report.findings[0].title;
  // In bounds it is a correct kernel, and with the bounds family on the bounds family reports it.
  EXPECT_EQ(kinds(run(b, "race", 0)), "");
  EXPECT_EQ(kinds(run(b, "all", 4096)), "global-out-of-bounds");
}

// A read through an address made from an integer returns 0, whatever the address holds.
TEST_F(Containment, ReadsOutsideTheKernelsMemoryReturnZero) {
  const std::string b = kernel("read", R"(
__global__ void k(float* out, long long x) {
  const float* p = (const float*)((unsigned long long)out + x);
  float v = p[threadIdx.x];
  out[threadIdx.x] = v + 1.0f;
}
)");
  for (long long x : {-(1ll << 24), 1ll << 30}) {
    td::CheckResult r = run(b, "race,init", x);
    EXPECT_EQ(kinds(r), "wild-access") << "x = " << x;
    for (double v : td::test::values(r, "out")) ASSERT_EQ(v, 1.0);
  }
}

// A local array indexed past its end is reported at the line, naming the array's size.
TEST_F(Containment, LocalArrayOverrunsAreWildAccesses) {
  const std::string b = kernel("local", R"(
__global__ void k(float* out, long long x) {
  float acc[8];
  for (int j = 0; j < 8; ++j) acc[j] = j * out[j];
  acc[(threadIdx.x + x) % 64] = 1.0f;
  out[threadIdx.x] = acc[threadIdx.x % 8];
}
)");
  td::CheckResult r = run(b, "bounds", 8);
  ASSERT_EQ(kinds(r), "wild-access");
  EXPECT_EQ(r.report.findings[0].loc.line, 5u);
  EXPECT_NE(r.report.findings[0].title.find("(32 bytes): outside it"), std::string::npos) << r.report.findings[0].title;
  EXPECT_EQ(kinds(run(b, "bounds", 64 - 63)), "wild-access");  // x = 1: threads 7.. run over
}

// A shared array indexed past its end: containment checks the array first (the test the optimiser proves
// for in-range indices, so those keep their shared-space accesses on the GPU), then the block's window: an
// index into the next array is the bounds family's to report, one far outside the window is a wild access.
TEST_F(Containment, SharedArrayOverrunsOutsideTheWindowAreWildAccesses) {
  const std::string b = kernel("shared", R"(
__global__ void k(float* out, long long x) {
  __shared__ float a[64];
  __shared__ float b[64];
  a[threadIdx.x] = 0.0f;
  b[threadIdx.x] = 1.0f + threadIdx.x;
  __syncthreads();
  a[threadIdx.x + x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}
)");
  for (long long x : {0ll, 32ll}) {  // 32: threads 32.. run past a, still inside the block's shared bytes
    td::CheckResult r = run(b, "launch", x);
    EXPECT_EQ(kinds(r), "") << "x = " << x;
  }
  EXPECT_EQ(kinds(run(b, "bounds", 32)), "shared-out-of-bounds");
  // Terabytes away, where nothing of the process is: 16 MiB away, one of the 64 stores once landed in memory
  // the kernel may touch (the CPU executor's layout moves from run to run).
  for (long long x : {1ll << 40, -(1ll << 40)}) {
    td::CheckResult r = run(b, "launch", x);
    ASSERT_EQ(kinds(r), "wild-access") << "x = " << x;
    EXPECT_EQ(r.report.findings[0].loc.line, 8u);
    EXPECT_EQ(r.report.findings[0].access, "write");
    EXPECT_EQ(r.report.findings[0].count, 64u);
    std::vector<double> v = td::test::values(r, "out");
    EXPECT_EQ(v[5], 6.0) << "the skipped stores changed nothing";
  }
}

// A call through a pointer made from an integer is skipped; calls through the module's own function
// pointers run.
TEST_F(Containment, CallsThroughForgedPointersAreSkipped) {
  const std::string b = kernel("call", R"(
__device__ float twice(float v) { return 2 * v; }
__device__ float thrice(float v) { return 3 * v; }
__device__ float (*const table[2])(float) = {twice, thrice};
__global__ void k(float* out, long long x) {
  float (*f)(float) = table[threadIdx.x % 2];
  if (x) f = (float (*)(float))((unsigned long long)f + x);
  out[threadIdx.x] = f(1.0f);
}
)");
  td::CheckResult clean = run(b, "all", 0);
  EXPECT_EQ(kinds(clean), "");
  std::vector<double> v = td::test::values(clean, "out");
  EXPECT_EQ(v[0], 2.0);
  EXPECT_EQ(v[1], 3.0);
  td::CheckResult wild = run(b, "race", 4096);
  ASSERT_EQ(kinds(wild), "wild-access");
  EXPECT_NE(wild.report.findings[0].title.find("none of the kernel's functions"), std::string::npos)
      << wild.report.findings[0].title;
  EXPECT_EQ(td::test::values(wild, "out")[0], 0.0);
}

// Every kind of memory a correct kernel uses is its own: no finding under any family, the right results.
TEST_F(Containment, CorrectKernelsUsingEveryKindOfMemoryAreClean) {
  const std::string c = kernel("clean", R"(
#include <cstdio>
struct Coeffs { float a, b; int n; };
__constant__ float kLut[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
__device__ float gScratch[64];
__device__ float pick(const float* row, int i) { return row[i % 4]; }
__device__ void fill(float* local, int n, float v) { for (int i = 0; i < n; ++i) local[i] = v + i; }
__device__ float body(float* out, Coeffs c, int i) {
  __shared__ float tile[64];
  float regs[16];
  fill(regs, 16, c.a);
  float sum = 0;
  for (int j = 0; j < c.n; ++j) sum += regs[(i + j) % 16] * kLut[(i * 7 + j) % 16];
  tile[i] = sum;
  gScratch[i] = sum;
  __syncthreads();
  float row[4] = {tile[(i + 1) % 64], c.b, 1, 2};
  return pick(row, i) + gScratch[i];
}
__global__ void k(float* out, long long x) {
  Coeffs c{1.0f, 2.0f, 16};
  int i = threadIdx.x;
  out[i] = body(out, c, i) + (float)x;
  if (i == 0) printf("%s %d\n", "done", c.n);
}
)");
  for (const char* checks : {"all", "race", "launch"}) {
    td::CheckResult r = run(c, checks, 0);
    EXPECT_EQ(kinds(r), "") << checks;
    std::vector<double> v = td::test::values(r, "out");
    ASSERT_EQ(v.size(), 64u);
    EXPECT_EQ(v[2], 1.0 + [] {  // pick(row, 2) is row[2] = 1, plus gScratch[2]
      float s = 0;
      for (int j = 0; j < 16; ++j) s += (1.0f + (2 + j) % 16) * ((2 * 7 + j) % 16);
      return s;
    }()) << checks;
  }
}

// A device printf of memory that is not the kernel's prints a placeholder, never the host's bytes.
TEST_F(Containment, PrintfPrintsNoMemoryOfTheHost) {
  const std::string b = kernel("printf", R"(
#include <cstdio>
__global__ void k(float* out, long long x) {
  if (threadIdx.x == 0) {
    printf("[%s]\n", (const char*)out + x);
    printf((const char*)out + x);
  }
}
)", 1);
  td::test::Cli r = td::test::runCli(fmt::format("check {} --checks race --param X=-1000000", b));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("(a string at 0x"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(printf with a format at 0x"), std::string::npos) << r.output;
  td::test::Cli inside = td::test::runCli(fmt::format("check {} --checks race --param X=0", b));
  EXPECT_EQ(inside.code, 0) << inside.output;
  EXPECT_NE(inside.output.find("[]"), std::string::npos) << inside.output;  // out is zeros: an empty string
}
