// Every inline-PTX statement clang sees in the CUDA SDK's cuda_fp16.hpp and cuda_bf16.hpp, for sm_80 and
// sm_90, is either emulated by the CPU executor (the catalogue parses it) or refused by name (a family
// says what it is). A new SDK with a statement neither knows fails here, listing it.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <set>

#include "frontend/compiler.h"
#include "instrument/ptx_catalogue.h"

using namespace td;
namespace fs = std::filesystem;

namespace {

// The asm strings of the two headers: every function emitted (-femit-all-decls), unoptimised.
std::set<std::string> sdkHalfStatements(const std::string& arch) {
  fs::path src = fs::temp_directory_path() / ("td_sdk_ptx_" + std::to_string(::getpid()) + ".cu");
  std::ofstream(src) << "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n";
  CompileOptions opts;
  opts.cudaSdk = findCudaSdk();
  opts.arch = arch;
  opts.optLevel = "-O0";
  opts.flags = {"-Xclang", "-femit-all-decls"};
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = compileCuda(ctx, src.string(), opts);
  fs::remove(src);
  std::set<std::string> found;
  for (llvm::Function& f : *m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        auto* ia = call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
        const llvm::DILocation* loc = i.getDebugLoc().get();
        if (!ia || !loc || ia->getAsmString().empty()) continue;
        llvm::StringRef file = loc->getFilename();
        if (file.ends_with("cuda_fp16.hpp") || file.ends_with("cuda_bf16.hpp")) found.insert(ia->getAsmString());
      }
  return found;
}

}  // namespace

TEST(SdkPtx, EveryHalfAndBfloat16StatementIsEmulatedOrNamed) {
  if (findCudaSdk().empty()) GTEST_SKIP() << "no CUDA SDK headers";
  for (const std::string arch : {"sm_80", "sm_90"}) {
    std::set<std::string> statements = sdkHalfStatements(arch);
    size_t emulated = 0, named = 0;
    std::string unknown;
    for (const std::string& s : statements) {
      if (parsePtx(s)) ++emulated;
      else if (!ptxLimitation(s).empty()) ++named;
      else unknown += "\n  " + s;
    }
    EXPECT_GT(statements.size(), 50u) << arch << ": the headers' statements were found";
    EXPECT_TRUE(unknown.empty()) << arch << ": neither emulated nor named:" << unknown;
    std::printf("%s: %zu statements in cuda_fp16.hpp/cuda_bf16.hpp: %zu emulated, %zu refused by name\n",
                arch.c_str(), statements.size(), emulated, named);
  }
}
