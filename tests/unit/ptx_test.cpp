// The CUDA executor's PTX generation needs no GPU: the instrumented kernel becomes PTX for sm_90 and,
// where the toolkit's ptxas is installed, assembles.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>

#include "model/family.h"
#include "checks/numerics/numerics_abi.h"
#include "instrument/pipeline.h"
#include "model/abi.h"
#include "runtime/bake.h"
#include "runtime/buffers.h"
#include "runtime/control_block.h"
#include "runtime/regions.h"
#include "runtime/cuda/address_constants.h"
#include "runtime/cuda/cuda_executor.h"
#include "runtime/cuda/ptx.h"
#include "runtime/cuda/ptx_cache.h"
#include "runtime/cuda/register_cap.h"
#include "profiler/ptxas_usage.h"
#include "test_support.h"

using namespace td;
using namespace td::test;
namespace fs = std::filesystem;

namespace {

// As the CUDA executor does: the control block and the pointer parameters baked with their addresses as
// symbols, which the optimised module then reads from parameters and .const variables (address_constants.h).
// `shift` moves every made-up address, as ASLR moves the real ones between runs.
std::string ptxFor(const std::string& bundlePath, uint32_t sharedTailBytes = 0, const std::string& arch = "sm_90",
                   std::vector<std::string>* unchecked = nullptr, uint64_t shift = 0) {
  Bundle b = loadBundle(bundlePath, {});
  KernelModule km = buildKernelModule(b, CheckSet::parse("all"));
  std::vector<ArgValue> args = makeArguments(b, 1, 0);
  td_ctl ctl{};
  ctl.abi_version = TD_ABI_VERSION;
  ctl.nbuffers = static_cast<unsigned>(b.args.size());
  ctl.shared_tail_bytes = sharedTailBytes;
  // Made-up device addresses: the checks stay in the code (with null ones they fold away).
  std::vector<uint64_t> pointers(args.size(), 0);
  std::vector<const void*> values(args.size());
  for (size_t i = 0; i < b.args.size(); ++i) {
    if (b.args[i].isBuffer) {
      pointers[i] = 0x7f0000000000ull + shift + (i << 32);
      ctl.buffers[i] = {pointers[i], b.args[i].byteSize()};
      values[i] = &pointers[i];
    } else {
      values[i] = &args[i].scalar;
    }
  }
  ctl.channel = reinterpret_cast<td_channel*>(0x7e0000000000ull + shift);
  ctl.hits = reinterpret_cast<unsigned int*>(0x7e0100000000ull + shift);
  // Every family's regions, at made-up addresses or, with a tail, all that may be kept in shared memory there.
  std::vector<td_region> regions = regionTable(CheckSet::known());
  for (size_t i = 0; i < regions.size(); ++i) {
    td_region& r = regions[i];
    if (!(r.flags & TD_REGION_PRESENT)) continue;
    r.bytes = regionInstanceBytes(r, 1024, 0);  // as the executors size them, for a 1 KiB window
    bool inTail = sharedTailBytes && (r.flags & (TD_REGION_PREFER_SHARED | TD_REGION_PREFER_SHARED_IF_FREE));
    if (inTail) r.flags |= TD_REGION_IN_SHARED, r.shared_offset = static_cast<uint32_t>(i) * 1024;
    else r.base = 0x7e0200000000ull + shift + (i << 32);
    ctl.regions[i] = r;
  }
  ControlBlockAddresses addresses = controlBlockAddresses(ctl);
  std::map<unsigned, std::string> pointerSymbols = bufferParameterSymbols(addresses, b.args.size());
  bakeGlobal(*km.module, "__td_ctl", &ctl, sizeof ctl, addresses.fields, 256);
  bakeArguments(*km.module, km.entrySymbol, values, pointerSymbols);
  if (unchecked) *unchecked = km.sites.unchecked;
  return cuda::generatePtx(*km.module, arch, b.grid.data(), b.block.data(), [&](llvm::Module& m) {
    cuda::moveAddressesToConstants(m, km.entrySymbol, addresses.values, pointerSymbols);
  });
}

std::string ptxas() {
  for (const char* p : {"/usr/local/cuda/bin/ptxas"})
    if (fs::exists(p)) return p;
  return "";
}

void expectAssembles(const std::string& ptx, const std::string& name, const std::string& arch = "sm_90") {
  std::string tool = ptxas();
  if (tool.empty()) GTEST_SKIP() << "ptxas not installed; PTX generated but not assembled";
  fs::path file = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".ptx");
  std::ofstream(file) << ptx;
  std::string cmd = tool + " -arch=" + arch + " " + file.string() + " -o " + file.string() + ".cubin 2>&1";
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

// Where the race state fits in shared memory, the block keeps it there: its shadow words are exchanged
// by shared-memory atomics (inside the SM), and nothing of it goes to global memory.
TEST(Ptx, RaceStateInSharedMemoryUsesSharedAtomics) {
  std::string inGlobal = ptxFor(example("gemm")), inShared = ptxFor(example("gemm"), 64 * 1024);
  EXPECT_NE(inShared.find("__td_dynamic_shared"), std::string::npos);
  EXPECT_NE(inShared.find("atom.shared.exch.b64"), std::string::npos) << "shared writes exchange the tag in shared memory";
  EXPECT_EQ(inShared.find("atom.global.exch.b64"), std::string::npos) << "no shared access exchanges in global memory";
  EXPECT_EQ(inGlobal.find("atom.shared.exch.b64"), std::string::npos) << "without the tail the shadow is in global memory";
  EXPECT_EQ(inGlobal.find("__td_dynamic_shared"), std::string::npos);
  expectAssembles(inShared, "gemm_shared_tail");
}

// The checks' own per-thread state stays in registers: a hook's allocas are promoted only from the kernel's
// entry block, so the block's set-up (a loop on the GPU, inlined) must not split them off it. Local memory keeps
// only the births of non-finite values, filled on their cold path; the numerics family's 16 store tallies of
// the GEMM's epilogue (80 bytes each) are not there, with the shared tail or without.
TEST(Ptx, ChecksStateStaysOutOfLocalMemory) {
  static const std::regex depot(R"(\.local \.align \d+ \.b8\s+__local_depot\d+\[(\d+)\])");
  for (uint32_t tail : {0u, 64u * 1024}) {
    std::string ptx = ptxFor(example("gemm"), tail);
    size_t largest = 0;
    for (std::sregex_iterator it(ptx.begin(), ptx.end(), depot), end; it != end; ++it)
      largest = std::max<size_t>(largest, std::stoul((*it)[1]));
    EXPECT_EQ(largest, TD_NUM_BIRTHS * sizeof(td_num_birth)) << "shared tail " << tail;
  }
}

// The register cap that buys a checked kernel occupancy (runtime/cuda/register_cap.h) reaches ptxas as .maxnreg
// in the entry's directives: the block reduction with every check takes 80 registers uncapped, 32 capped.
TEST(Ptx, ACappedKernelKeepsToItsRegisters) {
  const std::string entry = "_Z9block_sumPKfPfi";
  std::string ptx = ptxFor(bundle("reduce"), 64 * 1024), capped = cuda::withRegisterCap(ptx, entry, 32);
  ASSERT_NE(capped.find(".maxnreg 32\n{"), std::string::npos);
  EXPECT_EQ(cuda::withRegisterCap(capped, entry, 40), "") << "a kernel's own .maxnreg stays";
  EXPECT_EQ(cuda::withRegisterCap(ptx, "absent", 40), "");
  if (findPtxas().empty()) GTEST_SKIP() << "ptxas not installed";
  std::string why;
  std::optional<PtxasUsage> uncapped = ptxasUsage(ptx, "sm_90", entry, &why), used = ptxasUsage(capped, "sm_90", entry, &why);
  ASSERT_TRUE(uncapped && used) << why;
  EXPECT_GT(uncapped->registers, 64);
  EXPECT_LE(used->registers, 32);
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
    EXPECT_NE(ptx.find(".entry"), std::string::npos) << name << "\n" << ptx.substr(0, 4000);
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
  // As on the CPU: the three overruns, and the overrunning writes to C land in the next rows, which
  // another block writes too (a write-after-write race across blocks).
  size_t overruns = 0;
  for (const Finding& f : r.report.findings) overruns += f.kind == "global-out-of-bounds";
  EXPECT_EQ(overruns, 3u);
  EXPECT_TRUE(find(r, "global-out-of-bounds", 33));
  EXPECT_TRUE(find(r, "global-race-waw"));
  EXPECT_EQ(r.report.findings.size(), 4u);
}

// A launch the driver refuses (2048 threads per block, with the launch family off so nothing stops it
// first) is its own finding: the kernel never ran, which a fault would misstate.
TEST(CudaExecutor, ARefusedLaunchIsNamedAsSuch) {
  std::string why;
  if (!cuda::gpuAvailable(0, why)) GTEST_SKIP() << "no usable GPU (" << why << "); GPU tests skip";
  CheckRequest req;
  req.bundlePath = bundleFile("reduce", "too_many_threads");
  req.executor = "cuda";
  req.checks = "bounds";
  CheckResult r = runCheck(req);
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "launch-rejected");
  EXPECT_NE(f.title.find("cuLaunchKernel"), std::string::npos) << f.title;
  EXPECT_EQ(r.report.exitCode(), 3);
}

// A Hopper kernel that takes a TMA descriptor by value (tests/bundles/tma_copy): compiled for sm_90a with
// the descriptor left a kernel parameter (not baked), its bulk-tensor copy and mbarrier kept as written, and
// the shared arrays those statements write named as unchecked by the race and init families (their writes
// are invisible to them: checking would report reads of bytes "no thread wrote").
TEST(Ptx, HopperTmaKernelBecomesSm90aPtx) {
  std::vector<std::string> unchecked;
  std::string ptx = ptxFor(bundle("tma_copy"), 0, "sm_90a", &unchecked);
  EXPECT_NE(ptx.find(".target sm_90a"), std::string::npos);
  EXPECT_NE(ptx.find("cp.async.bulk.tensor.2d"), std::string::npos);
  EXPECT_NE(ptx.find(".b8 _Z14tma_tile_scale14CUtensorMap_stPfiii_param_0[128]"), std::string::npos)
      << "the descriptor stays a 128-byte parameter";
  EXPECT_NE(ptx.find("cvta.param.u64"), std::string::npos) << "the copy reads it in param space (__grid_constant__)";
  // No copy of it in local memory, which TMA cannot read: the thread's stack holds at most the numerics
  // family's buffer of non-finite births (its cold path's).
  for (size_t at = ptx.find(".b8 __local_depot"); at != std::string::npos; at = ptx.find(".b8 __local_depot", at + 1)) {
    size_t open = ptx.find('[', at);
    EXPECT_LE(std::stoul(ptx.substr(open + 1)), TD_NUM_BIRTHS * sizeof(td_num_birth)) << ptx.substr(at, 40);
  }
  ASSERT_FALSE(unchecked.empty());
  bool tileNamed = false;
  for (const std::string& u : unchecked)
    tileNamed |= u.find("shared array tile: cp.async.bulk.tensor.2d.shared::cluster.global") != std::string::npos;
  EXPECT_TRUE(tileNamed) << unchecked.front() << (unchecked.size() > 1 ? "\n" + unchecked[1] : "");
  expectAssembles(ptx, "tma_copy", "sm_90a");
}

// What the H200's ptxas said of TileLang's sm_90 fp8 GEMM (its TMA copies into .shared::cta), and the
// version line the retry gets.
TEST(Ptx, APtxasVersionRefusalNamesTheVersionToRetryWith) {
  std::string log =
      "ptxas application ptx input, line 366; error   : Feature 'cp.async.bulk.tensor with destination state space "
      "as .shared::cta' requires PTX ISA .version 8.6 or later\n"
      "ptxas application ptx input, line 380; error   : Feature 'x' requires PTX ISA .version 8.3 or later\n"
      "ptxas fatal   : Ptx assembly aborted due to errors";
  EXPECT_EQ(td::cuda::ptxVersionTheLogAsks(log), "8.6") << "the highest asked for";
  EXPECT_EQ(td::cuda::ptxVersionTheLogAsks("ptxas fatal: Unresolved extern function 'f'"), "");
  std::string ptx = "//\n// Generated by LLVM NVPTX Back-End\n//\n\n.version 8.0\n.target sm_90a\n.address_size 64\n"
                    "// .version 7.0 in a comment later stays\n";
  std::string retried = td::cuda::withPtxVersion(ptx, "8.6");
  EXPECT_NE(retried.find("\n.version 8.6\n.target sm_90a"), std::string::npos) << retried;
  EXPECT_NE(retried.find("// .version 7.0 in a comment"), std::string::npos);
  EXPECT_EQ(retried.find(".version 8.0"), std::string::npos);
}

// The run's addresses are not in the PTX: two runs whose allocations lie elsewhere (ASLR) write the same text,
// which the driver's compute cache then compiles once; the kernel reads its buffers' bases from its
// parameters and the rest from .const variables the executor writes after loading.
TEST(Ptx, TwoRunsAtOtherAddressesWriteTheSamePtx) {
  std::string first = ptxFor(example("gemm")), moved = ptxFor(example("gemm"), 0, "sm_90", nullptr, 0x5a3000000ull);
  EXPECT_EQ(first, moved);
  if (const char* dump = std::getenv("TD_PTX_TEST_DUMP")) std::ofstream(dump) << first;
  EXPECT_EQ(first.find(std::to_string(0x7e0000000000ull)), std::string::npos) << "the channel's address is written";
  EXPECT_EQ(first.find(std::to_string(0x7f0000000000ull)), std::string::npos) << "buffer A's address is written";
  EXPECT_NE(first.find(".const .align 8 .u64 " + cuda::addressConstant("__td_run_channel")), std::string::npos);
  EXPECT_NE(first.find("ld.const.u64"), std::string::npos);
  expectAssembles(first, "gemm_addresses");
}

// The PTX cache (ptx_cache.h): the same module, architecture and launch give the same entry, another launch
// shape or architecture another; a stored text comes back, a damaged entry is not served, and with
// TILE_DOCTOR_DUMP_PTX (which asks for the back end's own output) nothing is cached.
TEST(Ptx, CachedPtxFollowsTheModuleTheArchitectureAndTheLaunch) {
  CacheFolder cache;
  Bundle b = loadBundle(example("gemm"), {});
  KernelModule km = buildKernelModule(b, CheckSet::parse("all"));
  int64_t otherGrid[3] = {b.grid[0] + 1, b.grid[1], b.grid[2]};
  std::vector<std::string> symbols = {"__td_run_channel"};
  std::string key = cuda::ptxKey(*km.module, "sm_90", b.grid.data(), b.block.data(), symbols);
  ASSERT_FALSE(key.empty());
  EXPECT_EQ(key, cuda::ptxKey(*km.module, "sm_90", b.grid.data(), b.block.data(), symbols));
  EXPECT_NE(key, cuda::ptxKey(*km.module, "sm_80", b.grid.data(), b.block.data(), symbols));
  EXPECT_NE(key, cuda::ptxKey(*km.module, "sm_90", otherGrid, b.block.data(), symbols));
  EXPECT_NE(key, cuda::ptxKey(*km.module, "sm_90", b.grid.data(), b.block.data(), {}));
  EXPECT_FALSE(cuda::loadPtx(key));
  cuda::storePtx(key, "// the PTX\n");
  EXPECT_EQ(cuda::loadPtx(key).value_or(""), "// the PTX\n");
  EXPECT_EQ(cache.entries("ptx", ".ptx"), 1u);
  std::filesystem::path entry = cache.dir / "ptx" / (key + ".ptx");
  std::ofstream(entry, std::ios::app) << "tampered";
  EXPECT_FALSE(cuda::loadPtx(key)) << "a damaged entry is compiled again";
  setenv("TILE_DOCTOR_DUMP_PTX", "/dev/null", 1);
  EXPECT_EQ(cuda::ptxKey(*km.module, "sm_90", b.grid.data(), b.block.data(), symbols), "");
  unsetenv("TILE_DOCTOR_DUMP_PTX");
}
