// The checked kernel's register caps (runtime/cuda/register_cap.h): the caps that add blocks per SM, loosest
// first and never past the kernel as written's, as far as the checked kernel's shared memory lets them in; and
// the cap as PTX text. ptxas keeping to it is in ptx_test.cpp; choosing among the caps by their spills needs the
// driver (the GPU parity run).
#include <gtest/gtest.h>

#include "frontend/profile.h"
#include "frontend/occupancy.h"
#include "runtime/cuda/register_cap.h"
#include "test_support.h"

using namespace td;
using namespace td::cuda;
using td::test::h100;

namespace {

int64_t blocksPerSm(int64_t threads, int64_t shared, int64_t registers) {
  return occupancyOf({threads, shared, registers}, h100()).blocksPerSm;
}

}  // namespace

// The block reduction: 32 registers and 1 KiB as written, 8 blocks of 256 threads per SM (by threads); with
// every check 94 registers (2 blocks) and a shared tail of 19 KiB more, which still lets 8 in. Each cap is the
// most registers that keep its block count: 8 (and 7) blocks 32, 6 blocks 40, 5 blocks 48, 4 blocks 64, 3 blocks 80.
TEST(RegisterCap, EveryStepUpToTheKernelAsWritten) {
  const int64_t checkedShared = 1024 + 19 * 1024;
  ASSERT_EQ(blocksPerSm(256, 1024, 32), 8);
  ASSERT_EQ(blocksPerSm(256, checkedShared, 94), 2);
  std::vector<int64_t> caps = registerCaps({32, 1024}, {94, checkedShared}, 256, h100());
  EXPECT_EQ(caps, (std::vector<int64_t>{80, 64, 48, 40, 32}));
  for (int64_t cap : caps) EXPECT_LT(blocksPerSm(256, checkedShared, cap + 8), blocksPerSm(256, checkedShared, cap)) << cap;
  // A GEMM at 64 registers as written (4 blocks) and 128 checked (2 blocks): 64 or 80.
  EXPECT_EQ(registerCaps({64, 8192}, {128, 8192 + 40 * 1024}, 256, h100()), (std::vector<int64_t>{80, 64}));
}

// Where the checked kernel's larger shared memory lets fewer blocks in, only the caps up to those.
TEST(RegisterCap, TheCheckedKernelsSharedMemoryLimitsTheSteps) {
  const int64_t checkedShared = 100 * 1024;
  ASSERT_EQ(blocksPerSm(256, checkedShared, 0), 2);
  EXPECT_EQ(registerCaps({32, 1024}, {130, checkedShared}, 256, h100()), (std::vector<int64_t>{128}));
  EXPECT_TRUE(registerCaps({32, 1024}, {94, checkedShared}, 256, h100()).empty()) << "2 blocks already";
}

// No cap where none adds a block, or nothing is known.
TEST(RegisterCap, NoneWhereNoneAddsABlockOrNothingIsKnown) {
  EXPECT_TRUE(registerCaps({32, 1024}, {32, 1024}, 256, h100()).empty());
  EXPECT_TRUE(registerCaps({200, 1024}, {255, 1024}, 256, h100()).empty()) << "one block either way";
  EXPECT_TRUE(registerCaps({0, 0}, {94, 0}, 256, h100()).empty());
  Profile unknown = h100();
  unknown.registersPerSm = 0;
  EXPECT_TRUE(registerCaps({32, 0}, {94, 0}, 256, unknown).empty());
}

TEST(RegisterCap, TheCapIsADirectiveOfTheEntry) {
  const std::string ptx = ".version 8.0\n.target sm_90\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n.maxntid 256, 1, 1\n{\n\tret;\n}\n";
  EXPECT_EQ(withRegisterCap(ptx, "k", 40),
            ".version 8.0\n.target sm_90\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n.maxntid 256, 1, 1\n.maxnreg 40\n{\n\tret;\n}\n");
  EXPECT_EQ(withRegisterCap(withRegisterCap(ptx, "k", 40), "k", 64), "") << "a .maxnreg of its own stays";
  EXPECT_EQ(withRegisterCap(ptx, "other", 40), "");
}
