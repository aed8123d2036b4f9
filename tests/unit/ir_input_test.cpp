// A bundle may name NVPTX IR (.ll or .bc) instead of source: the same checks run on it.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "frontend/compiler.h"
#include "test_support.h"

using namespace td;
using namespace td::test;
namespace fs = std::filesystem;

namespace {

// The shared_overflow bundle's kernel as IR, written as text or bitcode next to a manifest naming it.
std::string writeIrBundle(const fs::path& dir, bool bitcode) {
  fs::create_directories(dir);
  llvm::LLVMContext ctx;
  auto m = compileCuda(ctx, std::string(TD_TESTS_DIR) + "/bundles/shared_overflow/overflow.cu", CompileOptions{});
  std::string irName = bitcode ? "overflow.bc" : "overflow.ll";
  std::error_code ec;
  llvm::raw_fd_ostream os((dir / irName).string(), ec);
  if (bitcode) llvm::WriteBitcodeToFile(*m, os);
  else m->print(os, nullptr);
  std::ifstream in(std::string(TD_TESTS_DIR) + "/bundles/shared_overflow/bundle.toml");
  std::string manifest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  manifest.replace(manifest.find("source = \"overflow.cu\""), 22, "ir = \"" + irName + "\"");
  std::ofstream(dir / "bundle.toml") << manifest;
  return (dir / "bundle.toml").string();
}

}  // namespace

TEST(IrInput, TextAndBitcodeGiveTheSameFinding) {
  for (bool bitcode : {false, true}) {
    fs::path dir = fs::temp_directory_path() / ("td_ir_" + std::to_string(::getpid()) + (bitcode ? "_bc" : "_ll"));
    CheckResult r = check(writeIrBundle(dir, bitcode));
    ASSERT_EQ(r.report.findings.size(), 1u) << (bitcode ? "bitcode" : "text");
    EXPECT_EQ(r.report.findings[0].kind, "shared-out-of-bounds");
    EXPECT_EQ(r.report.findings[0].buffer, "first");
    EXPECT_EQ(r.report.findings[0].loc.line, 6u);
    fs::remove_all(dir);
  }
}

TEST(IrInput, NonNvptxIrIsBadInput) {
  fs::path dir = fs::temp_directory_path() / ("td_ir_x86_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.ll") << "target triple = \"x86_64-pc-linux-gnu\"\ndefine void @k() { ret void }\n";
  std::ofstream(dir / "bundle.toml") << "[kernel]\nir = \"k.ll\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [1]\n";
  Cli r = runCli("check " + (dir / "bundle.toml").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("tile-doctor reads NVPTX IR"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

// IR that parses but is not valid (an instruction using itself, a block without a terminator) or that
// LLVM's own reader gives up on (bitcode cut short): exit 2 naming the file, never LLVM ending the tool.
TEST(IrInput, InvalidIrIsBadInputNotAnAbort) {
  fs::path dir = fs::temp_directory_path() / ("td_ir_bad_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const char* head = "target triple = \"nvptx64-nvidia-cuda\"\n";
  std::ofstream(dir / "selfuse.ll") << head << "define void @k(i32 %n) {\nentry:\n  %a = add i32 %a, %n\n  ret void\n}\n"
                                    << "!llvm.module.flags = !{!0}\n!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n";
  std::ofstream(dir / "noterm.ll") << head << "define void @k() {\nentry:\n  %x = add i32 1, 2\n}\n";
  std::ofstream(dir / "cut.bc") << "BC\xc0\xde\x35\x14\x00\x00\x05\x00\x00\x00\x62\x0c\x30\x24";
  // IR that LLVM 19 parses, verifies and writes, then cannot read its own bitcode back ("Invalid attribute
  // group entry"): found by the IR fuzzer, it was exit 4
  fs::copy_file(std::string(TD_TESTS_DIR) + "/data/ir/unreadable_attribute_group.ll", dir / "attr.ll",
                fs::copy_options::overwrite_existing);
  for (const char* file : {"selfuse.ll", "noterm.ll", "cut.bc", "attr.ll"}) {
    std::ofstream(dir / "bundle.toml") << "[kernel]\nir = \"" << file << "\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [1]\n";
    Cli r = runCli("check " + (dir / "bundle.toml").string());
    EXPECT_EQ(r.code, 2) << file << "\n" << r.output;
    EXPECT_NE(r.output.find(file), std::string::npos) << r.output;
  }
  fs::remove_all(dir);
}
