// The CUDA executor's PTX generation needs no GPU: the instrumented kernel becomes PTX for sm_90 and,
// where the toolkit's ptxas is installed, assembles.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "instrument/pipeline.h"
#include "runtime/abi.h"
#include "runtime/cpu/bake.h"
#include "runtime/cuda/cuda_executor.h"
#include "runtime/cuda/ptx.h"
#include "test_support.h"

using namespace td;
using namespace td::test;
namespace fs = std::filesystem;

namespace {

std::string ptxFor(const std::string& bundlePath) {
  Bundle b = loadBundle(bundlePath, {});
  KernelModule km = buildKernelModule(b, CheckSet::parse("all"));
  td_ctl ctl{};
  ctl.abi_version = TD_ABI_VERSION;
  for (size_t i = 0; i < b.args.size(); ++i)  // made-up device addresses: the checks stay in the code
    if (b.args[i].isBuffer) ctl.buffers[i] = {0x7f0000000000ull + (i << 32), b.args[i].byteSize()};
  cpu::bakeGlobal(*km.module, "__td_ctl", &ctl, sizeof ctl);
  return cuda::generatePtx(*km.module, "sm_90", b.grid.data(), b.block.data());
}

std::string ptxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas"})
    if (fs::exists(p)) return p;
  return "";
}

void expectAssembles(const std::string& ptx, const std::string& name) {
  std::string tool = ptxas();
  if (tool.empty()) GTEST_SKIP() << "ptxas not installed; PTX generated but not assembled";
  fs::path file = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".ptx");
  std::ofstream(file) << ptx;
  std::string cmd = tool + " -arch=sm_90 " + file.string() + " -o " + file.string() + ".cubin 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  fs::remove(file);
  fs::remove(file.string() + ".cubin");
}

}  // namespace

TEST(Ptx, InstrumentedGemmBecomesSm90Ptx) {
  std::string ptx = ptxFor(example("gemm"));
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(ptx.find(".entry _Z4gemm"), std::string::npos);
  EXPECT_NE(ptx.find("bar.sync"), std::string::npos);
  EXPECT_NE(ptx.find("__td_sink"), std::string::npos) << "the bounds guards are in the code";
  expectAssembles(ptx, "gemm");
}

TEST(Ptx, MathAndWarpShufflesNeedLibdevice) {
  if (cuda::findLibdevice().empty()) GTEST_SKIP() << "no libdevice (CUDA toolkit) on this machine";
  std::string ptx = ptxFor(bundle("softmax"));
  EXPECT_NE(ptx.find("shfl.sync.bfly"), std::string::npos);
  EXPECT_EQ(ptx.find("__nv_expf"), std::string::npos) << "libdevice was linked and inlined";
  expectAssembles(ptx, "softmax");
}

TEST(Ptx, EveryTestBundleCompilesForTheGpu) {
  for (const char* name : {"reduce", "transpose", "dynsmem", "shared_overflow", "shared_window", "misaligned",
                           "wild_pointer", "hang", "deadlock", "warp_probe", "ptx_mma", "ptx_ops", "mbarrier"}) {
    std::string ptx = ptxFor(bundle(name));
    EXPECT_NE(ptx.find(".entry"), std::string::npos) << name;
  }
}

TEST(CudaExecutor, WithoutAGpuAutoFallsBackAndCudaSaysWhy) {
  std::string why;
  if (cuda::gpuAvailable(0, why)) GTEST_SKIP() << "a GPU is present; the GPU suite (tests/gpu) covers it";
  EXPECT_FALSE(why.empty());
  Cli cuda = runCli("check " + example("gemm") + " --executor cuda");
  EXPECT_EQ(cuda.code, 2) << cuda.output;
  EXPECT_NE(cuda.output.find("no usable GPU"), std::string::npos) << cuda.output;
  Cli autoRun = runCli("check " + example("gemm") + " --executor auto");
  EXPECT_EQ(autoRun.code, 0) << autoRun.output;
  EXPECT_NE(autoRun.output.find("executor cpu"), std::string::npos) << autoRun.output;
}

// Runs only where a GPU is usable (the GPU machine; tests/gpu/parity.py covers every bundle there).
TEST(CudaExecutor, FindingsAndOutputsOnTheGpu) {
  std::string why;
  if (!cuda::gpuAvailable(0, why)) GTEST_SKIP() << "no usable GPU (" << why << "); GPU tests skip";
  CheckRequest req;
  req.bundlePath = example("gemm_edge_bug");
  req.executor = "cuda";
  CheckResult r = runCheck(req);
  EXPECT_EQ(r.report.executor, "cuda");
  EXPECT_EQ(r.report.findings.size(), 3u);
  EXPECT_TRUE(find(r, "global-out-of-bounds", 33));
}
