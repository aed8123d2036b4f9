// Choosing a checked kernel's register cap (runtime/cuda/capped_load.h) against a stand-in driver: the kernel as
// written is the block reduction's real PTX, and the driver's assembler answers with the registers and local
// memory `ptxas -v` gives the reduction with every check on sm_90 (uncapped 94 registers and a 1,280-byte frame;
// capped at 80, 64, 48, 40 and 32: 1,288, 1,336, 1,408, 1,440 and 1,480 bytes). The timing of what it picks
// needs the GPU; which cap it picks, and that it leaves one module loaded, does not.
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>

#include "frontend/manifest.h"
#include "runtime/cuda/capped_load.h"
#include "test_support.h"

using namespace td;
using namespace td::cuda;
using namespace td::test;

namespace {

const std::string kEntry = "_Z9block_sumPKfPfi";

// The stand-in assembler: a module is its register cap (0: uncapped) plus one, or -1 for the kernel as written.
std::map<int64_t, int> gLocalBytes;  // per cap, the checked kernel's frame
std::set<CUmodule> gLoaded;
int gLoads = 0;

int64_t capOf(const void* handle) { return reinterpret_cast<intptr_t>(handle) - 1; }

CUresult loadModule(CUmodule* m, const void* image, unsigned, int*, void**) {
  std::string ptx(static_cast<const char*>(image));
  std::smatch cap;
  int64_t id = ptx.find("// checked") == std::string::npos ? -1
               : std::regex_search(ptx, cap, std::regex(R"(\.maxnreg (\d+))")) ? std::stoll(cap[1]) : 0;
  if (id > 0 && !gLocalBytes.count(id)) return 1;
  *m = reinterpret_cast<CUmodule>(id + 1);
  gLoaded.insert(*m);
  ++gLoads;
  return 0;
}
CUresult unloadModule(CUmodule m) { return gLoaded.erase(m) ? 0 : 1; }
CUresult getFunction(CUfunction* f, CUmodule m, const char* name) {
  if (name != kEntry) return 1;
  *f = reinterpret_cast<CUfunction>(m);
  return 0;
}
CUresult funcAttribute(int* v, int which, CUfunction f) {
  int64_t id = capOf(f);
  if (which == kFuncNumRegisters) *v = id < 0 ? 32 : id == 0 ? 94 : static_cast<int>(id);
  else if (which == kFuncLocalSizeBytes) *v = id < 0 ? 0 : gLocalBytes.at(id);
  else if (which == kFuncSharedSizeBytes) *v = 1024;
  else return 1;
  return 0;
}
CUresult deviceAttribute(int* v, int which, CUdevice) {  // an H100's, as its driver says
  static const std::map<int, int> h100 = {{kAttrMaxThreadsPerSm, 2048},       {kAttrMaxSharedPerSm, 233472},
                                          {kAttrMaxRegistersPerSm, 65536},    {kAttrMaxRegistersPerBlock, 65536},
                                          {kAttrMaxBlocksPerSm, 32},          {kAttrReservedSharedPerBlock, 1024}};
  auto it = h100.find(which);
  if (it == h100.end()) return 1;
  *v = it->second;
  return 0;
}

Driver standIn() {
  Driver d{};
  d.cuModuleLoadDataEx = loadModule;
  d.cuModuleUnload = unloadModule;
  d.cuModuleGetFunction = getFunction;
  d.cuFuncGetAttribute = funcAttribute;
  d.cuDeviceGetAttribute = deviceAttribute;
  return d;
}

// The checked kernel's PTX as far as the choice reads it: its entry, and the marker the stand-in knows it by.
const std::string kCheckedPtx = "// checked\n.visible .entry " + kEntry + "(\n\t.param .u64 p\n)\n{\n\tret;\n}\n";

struct Choice {
  std::string note;
  int64_t cap = 0;  // of the module left loaded
};

Choice choose(const std::map<int64_t, int>& localBytes, uint32_t dynamicShared = 19 * 1024) {
  CacheFolder cache;  // the kernel as written's PTX is cached: in the test's own folder
  gLocalBytes = localBytes;
  gLoaded.clear();
  gLoads = 0;
  Driver d = standIn();
  Bundle b = loadBundle(bundle("reduce"), {});
  CUmodule mod = nullptr;
  EXPECT_EQ(loadModule(&mod, kCheckedPtx.c_str(), 0, nullptr, nullptr), 0);
  std::string note = capForOccupancy(d, 0, b, "sm_90", kEntry, kCheckedPtx, dynamicShared, mod);
  EXPECT_EQ(gLoaded, std::set<CUmodule>{mod}) << "one module stays loaded, the one handed back";
  return {note, capOf(mod)};
}

}  // namespace

// The reduction with every check: the cap 80 grows the frame by 8 bytes (within the allowance), 64 by 56: 80 it
// is, 3 blocks per SM instead of 2, and 64 is the last one tried.
TEST(CappedLoad, TheTightestCapWithinTheSpillAllowance) {
  Choice c = choose({{0, 1280}, {80, 1288}, {64, 1336}, {48, 1408}, {40, 1440}, {32, 1480}});
  EXPECT_EQ(c.cap, 80) << c.note;
  EXPECT_NE(c.note.find("registers capped at 80 a thread (94 uncapped): 3 blocks per SM instead of 2"), std::string::npos) << c.note;
  EXPECT_NE(c.note.find("the kernel as written: 32 registers, 8"), std::string::npos) << c.note;
  EXPECT_EQ(gLoads, 1 + 1 + 2) << "the checked kernel, the kernel as written, and 80, 64 (64 spills: stop)";
}

// The reduction under numerics alone (ptxas: 80 and 64 leave the frame as it is, 48 adds 40 bytes): past the
// first cap to the tightest that spills nothing, 4 blocks per SM.
TEST(CappedLoad, CapsThatSpillNothingGoOnToTheNext) {
  Choice c = choose({{0, 1280}, {80, 1280}, {64, 1280}, {48, 1320}, {40, 1352}, {32, 1424}});
  EXPECT_EQ(c.cap, 64) << c.note;
  EXPECT_NE(c.note.find("4 blocks per SM instead of 2"), std::string::npos) << c.note;
  EXPECT_EQ(gLoads, 1 + 1 + 3);
}

// A kernel whose every cap spills past the allowance keeps its registers, and says why. The frames are those
// ptxas gives the GEMM under numerics (1,320 bytes uncapped; at 80, 112 bytes more: its shadow accumulators in
// local memory, on an H100 5.3x native instead of 3.0x at 256, 14.0x instead of 3.2x at 1024); the stand-in's
// registers and occupancy stay the reduction's.
TEST(CappedLoad, NoCapWhereEveryCapSpills) {
  Choice c = choose({{0, 1320}, {80, 1432}, {64, 1552}, {48, 1624}, {40, 1648}, {32, 1688}});
  EXPECT_EQ(c.cap, 0);
  EXPECT_NE(c.note.find("registers not capped: 94 a thread, 2 blocks per SM (the kernel as written: 8)"), std::string::npos) << c.note;
  EXPECT_EQ(gLoads, 1 + 1 + 1) << "only the loosest cap was tried";
}

// No blocks lost to registers (a shared tail that lets only 2 blocks in anyway): nothing is compiled or tried.
TEST(CappedLoad, NothingWhereRegistersDoNotLimit) {
  Choice c = choose({{0, 1280}}, 110 * 1024);
  EXPECT_EQ(c.cap, 0);
  EXPECT_EQ(c.note, "");
  EXPECT_EQ(gLoads, 1);
}

// The bench knob sets the cap itself; 0 leaves the kernel uncapped.
TEST(CappedLoad, TheBenchKnobSetsTheCap) {
  setenv("TILE_DOCTOR_BENCH_MAX_REGISTERS", "64", 1);
  Choice c = choose({{0, 1280}, {64, 1344}});
  EXPECT_EQ(c.cap, 64);
  setenv("TILE_DOCTOR_BENCH_MAX_REGISTERS", "0", 1);
  Choice none = choose({{0, 1280}, {64, 1344}});
  unsetenv("TILE_DOCTOR_BENCH_MAX_REGISTERS");
  EXPECT_EQ(none.cap, 0);
}
