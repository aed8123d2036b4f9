// `tile-doctor instrument`: NVPTX and AMDGPU IR (tests/ir: what clang 19 emits for a HIP kernel and its
// CUDA twin) in, an instrumented module and its site table out.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "test_support.h"

using namespace td::test;
namespace fs = std::filesystem;

namespace {

struct Instrumented {
  Cli cli;
  std::string ir;
  nlohmann::json sites;
};

Instrumented instrument(const std::string& input, const std::string& extra = "") {
  fs::path out = fs::temp_directory_path() / ("td_instrument_" + std::to_string(::getpid()) + ".ll");
  Instrumented r{runCli("instrument " + std::string(TD_TESTS_DIR) + "/ir/" + input + " -o " + out.string() + " " + extra), "", {}};
  if (fs::exists(out)) {
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    r.ir = text.str();
    r.sites = nlohmann::json::parse(std::ifstream(out.string() + ".sites.json"));
  }
  fs::remove(out);
  fs::remove(out.string() + ".sites.json");
  return r;
}

void expectValidModule(const std::string& ir, const std::string& triplePrefix) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, err, ctx);
  ASSERT_TRUE(m) << err.getMessage().str();
  EXPECT_FALSE(llvm::verifyModule(*m, &llvm::errs()));
  EXPECT_EQ(m->getTargetTriple().rfind(triplePrefix, 0), 0u) << m->getTargetTriple();
}

// The two accesses of `out[i] = 2.0f * in[i]` (line 19 of scale.hip), each with its bounds hook — and, with
// the race family too, a race hook. (The numerics family's store sites, which name the stored type, are not
// memory checks.)
void expectBothAccessesChecked(const Instrumented& r, int hooksPerAccess) {
  int accesses = 0;
  for (const auto& s : r.sites["sites"])
    if ((s["kind"] == "load" || s["kind"] == "store") && s["what"] == "") {
      EXPECT_EQ(s["line"], 19) << s.dump();
      EXPECT_NE(s["file"].get<std::string>().find("scale.hip"), std::string::npos);
      ++accesses;
    }
  EXPECT_EQ(accesses, 2 * hooksPerAccess) << r.sites.dump();
  size_t checks = 0;
  for (size_t at = r.ir.find("call i32 @__td_check_global("); at != std::string::npos;
       at = r.ir.find("call i32 @__td_check_global(", at + 1))
    ++checks;
  EXPECT_EQ(checks, 2u);
}

}  // namespace

TEST(InstrumentCommand, NvptxIrWithEveryFamilyAndTheRuntimeLinked) {
  Instrumented r = instrument("scale_nvptx.ll");
  ASSERT_EQ(r.cli.code, 0) << r.cli.output;
  expectValidModule(r.ir, "nvptx64");
  expectBothAccessesChecked(r, 2);
  EXPECT_NE(r.ir.find("call void @__td_race_global("), std::string::npos);
  EXPECT_NE(r.ir.find("define internal"), std::string::npos) << "the device runtime's hooks, linked and internal";
  EXPECT_NE(r.cli.output.find("its loader must provide: "), std::string::npos) << r.cli.output;
  EXPECT_NE(r.cli.output.find("__td_region"), std::string::npos) << "the executor primitives named";
}

TEST(InstrumentCommand, AmdgpuIrFromHipGetsTheBoundsChecks) {
  Instrumented r = instrument("scale_amdgpu.ll");
  ASSERT_EQ(r.cli.code, 0) << r.cli.output;
  expectValidModule(r.ir, "amdgcn");
  expectBothAccessesChecked(r, 1);
  EXPECT_NE(r.ir.find("declare i32 @__td_check_global"), std::string::npos) << "the hook, for the target's runtime";
  EXPECT_NE(r.cli.output.find("AMDGPU IR: bounds only"), std::string::npos) << r.cli.output;
}

TEST(InstrumentCommand, RaceOnAmdgpuIrIsRefusedByName) {
  Instrumented r = instrument("scale_amdgpu.ll", "--checks race");
  EXPECT_EQ(r.cli.code, 2) << r.cli.output;
  EXPECT_NE(r.cli.output.find("the race family reads NVVM barriers"), std::string::npos) << r.cli.output;
  EXPECT_TRUE(r.ir.empty()) << "nothing written";
}

TEST(InstrumentCommand, SourceInsteadOfIrIsBadInput) {
  Instrumented r = instrument("scale.hip");
  EXPECT_EQ(r.cli.code, 2) << r.cli.output;
  EXPECT_NE(r.cli.output.find("scale.hip"), std::string::npos) << r.cli.output;
}
