// The checked kernel's register cap (runtime/cuda/register_cap.h): as many blocks an SM as the kernel as written
// gets, as far as the checked kernel's shared memory lets them in; a kernel's own register maximum stays. The
// PTX side (`.maxnreg`, ptxas keeping to it) is in ptx_test.cpp.
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include "frontend/profile.h"
#include "profiler/occupancy.h"
#include "runtime/cuda/register_cap.h"

using namespace td;
using namespace td::cuda;

namespace {

const Profile& h100() {
  static const Profile p = loadProfile("nvidia-h100");
  return p;
}

int64_t blocksPerSm(int64_t threads, int64_t shared, int64_t registers) {
  return occupancyOf({threads, shared, registers}, h100()).blocksPerSm;
}

// A module with one empty kernel `k` and, if `key` is given, an nvvm annotation of it.
std::unique_ptr<llvm::Module> kernelModule(llvm::LLVMContext& ctx, const char* key = nullptr, int value = 0) {
  auto m = std::make_unique<llvm::Module>("k", ctx);
  auto* fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
                                    llvm::Function::ExternalLinkage, "k", m.get());
  if (key) {
    llvm::Metadata* node[] = {llvm::ConstantAsMetadata::get(fn), llvm::MDString::get(ctx, key),
                              llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value))};
    m->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(ctx, node));
  }
  return m;
}

int64_t annotation(const llvm::Module& m, llvm::StringRef key) {
  const llvm::NamedMDNode* ann = m.getNamedMetadata("nvvm.annotations");
  if (!ann) return 0;
  for (const llvm::MDNode* n : ann->operands()) {
    auto* k = llvm::dyn_cast_or_null<llvm::MDString>(n->getOperand(1));
    if (k && k->getString() == key) return llvm::mdconst::extract<llvm::ConstantInt>(n->getOperand(2))->getSExtValue();
  }
  return 0;
}

}  // namespace

// The block reduction: 32 registers and 1 KiB as written, 8 blocks of 256 threads per SM (by threads); with
// every check its shared tail adds 19 KiB, which still lets 8 in, so the checked kernel gets 32 registers.
TEST(RegisterCap, KeepsTheBlocksOfTheKernelAsWritten) {
  ASSERT_EQ(blocksPerSm(256, 1024, 32), 8);
  int64_t cap = registerCap({32, 1024}, 1024 + 19 * 1024, 256, h100());
  EXPECT_EQ(cap, 32);
  EXPECT_EQ(blocksPerSm(256, 1024 + 19 * 1024, cap), 8);
  EXPECT_LT(blocksPerSm(256, 1024 + 19 * 1024, cap + 1), 8) << "the most registers that keep 8 blocks";
  // A GEMM at 128 registers (2 blocks): the checks may take up to 128 too, not fewer.
  EXPECT_EQ(registerCap({128, 8192}, 8192 + 40 * 1024, 256, h100()), 128);
  // With 48 KiB of shared memory a block, 4 blocks fit by memory: 64 registers keep them.
  EXPECT_EQ(registerCap({32, 48 * 1024}, 48 * 1024, 256, h100()), 64);
  // Blocks of 64 threads: 32 of them (the SM's most blocks) as written, which 32 registers keep.
  EXPECT_EQ(registerCap({24, 0}, 0, 64, h100()), 32);
}

// Where the checked kernel's larger shared memory already lets fewer blocks in, the cap keeps only those.
TEST(RegisterCap, TheCheckedKernelsSharedMemoryLimitsTheTarget) {
  int64_t checkedShared = 100 * 1024;
  ASSERT_EQ(blocksPerSm(256, checkedShared, 0), 2);
  EXPECT_EQ(registerCap({32, 1024}, checkedShared, 256, h100()), 128);
}

// No cap where a thread's most registers keep the blocks, nor where nothing is known.
TEST(RegisterCap, NoneWhereNotNeededOrNotKnown) {
  EXPECT_EQ(registerCap({200, 0}, 0, 256, h100()), 0) << "255 keep the one block that 200 gets";
  EXPECT_EQ(registerCap({0, 0}, 0, 256, h100()), 0);
  Profile unknown = h100();
  unknown.registersPerSm = 0;
  EXPECT_EQ(registerCap({32, 0}, 0, 256, unknown), 0);
}

TEST(RegisterCap, AnnotatesTheKernel) {
  llvm::LLVMContext ctx;
  auto m = kernelModule(ctx);
  EXPECT_TRUE(capRegisters(*m, "k", 40));
  EXPECT_EQ(annotation(*m, "maxnreg"), 40);
  EXPECT_FALSE(capRegisters(*m, "absent", 40));
}

// A kernel's own register maximum stays; __launch_bounds__(256, 2)'s minimum of blocks (minctasm) takes the cap
// beside it (the cap keeps the blocks of the kernel as written, which ptxas compiled for that minimum).
TEST(RegisterCap, AKernelsOwnMaximumStays) {
  llvm::LLVMContext ctx;
  auto own = kernelModule(ctx, "maxnreg", 96);
  EXPECT_FALSE(capRegisters(*own, "k", 40));
  EXPECT_EQ(annotation(*own, "maxnreg"), 96);
  auto bounded = kernelModule(ctx, "minctasm", 2);
  EXPECT_TRUE(capRegisters(*bounded, "k", 40));
  EXPECT_EQ(annotation(*bounded, "maxnreg"), 40);
  EXPECT_EQ(annotation(*bounded, "minctasm"), 2);
}
