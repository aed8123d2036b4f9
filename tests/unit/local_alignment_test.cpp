// Local arrays take the alignment of their widest access (instrument/local_alignment.h): what TileLang's
// `float scores_max[2]` read as float2 needs once a check keeps the array in local memory.
#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include "instrument/local_alignment.h"

namespace {

const char* kKernel = R"(
target triple = "nvptx64-nvidia-cuda"
declare void @escape(ptr)
define void @k(ptr %out) {
  %pair = alloca [2 x float], align 4
  %quad = alloca [8 x float], align 4
  %scalar = alloca [4 x float], align 4
  call void @escape(ptr %pair)
  %v = load <2 x float>, ptr %pair, align 8
  store <2 x float> %v, ptr %out, align 8
  %second = getelementptr inbounds float, ptr %quad, i64 4
  store <4 x float> zeroinitializer, ptr %second, align 16
  %x = load float, ptr %scalar, align 4
  store float %x, ptr %out, align 4
  ret void
}
)";

llvm::Align alignOf(llvm::Function& f, const char* name) {
  for (llvm::Instruction& i : f.getEntryBlock())
    if (i.getName() == name) return llvm::cast<llvm::AllocaInst>(i).getAlign();
  ADD_FAILURE() << name;
  return llvm::Align(1);
}

}  // namespace

TEST(LocalAlignment, ALocalArrayTakesItsWidestAccess) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(kKernel, err, ctx);
  ASSERT_TRUE(m) << err.getMessage().str();
  td::alignLocalArraysForTheirAccesses(*m);
  llvm::Function& k = *m->getFunction("k");
  EXPECT_EQ(alignOf(k, "pair").value(), 8u) << "the float2 read of a float[2]";
  EXPECT_EQ(alignOf(k, "quad").value(), 16u) << "a float4 store 16 bytes in: the array itself 16-aligned";
  EXPECT_EQ(alignOf(k, "scalar").value(), 4u) << "scalar accesses leave it as it was";
}
