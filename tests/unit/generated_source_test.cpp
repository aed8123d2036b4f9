// `check kernel.maca`: a TileLang-generated source with its host wrapper (init()/call()) checked as call()
// runs it (frontend/host_wrapper.h, driver/wrapper_run.h). The reader on the three launch forms the
// wrappers write; the dumps in tests/dumps (written here the way tilelang-metax's wrapper writes them):
// launches chained in call()'s order with outputs computed by hand, the unguarded twin found at its line,
// and what is missing (a shape, a scalar, the templates) said at the dump's line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "frontend/host_wrapper.h"
#include "frontend/input_error.h"
#include "temp_folder_test.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace {

const std::string kDumps = std::string(TD_TESTS_DIR) + "/dumps/";

const char* kChevronDump = R"(#include <tl_templates/maca/common.h>
extern "C" __global__ void __launch_bounds__(128) main_kernel(half_t* __restrict__ A, int n);
extern "C" __global__ void __launch_bounds__(128) main_kernel(half_t* __restrict__ A, int n) {
  A[threadIdx.x] = A[threadIdx.x];  // "call(" in a comment is not a host function
}
#define ERROR_BUF_SIZE 1024
static char error_buf[ERROR_BUF_SIZE];
extern "C" TL_EXPORT int init() {
    error_buf[0] = '\0';
    if (98304 > 65536) {
        snprintf(error_buf, ERROR_BUF_SIZE, "Failed (%d) { unbalanced in a string", 98304);
        return -1;
    }
    return 0;
}
extern "C" TL_EXPORT int call(half_t* __restrict__ A, int n, mcStream_t stream=mcStreamDefault) {
	main_kernel<<<dim3((((int)n + 127) / 128), 1, 1), dim3(128, 1, 1), 98304, stream>>>(A, n);
	TILELANG_CHECK_LAST_ERROR("main_kernel");
	return 0;
}
)";

TEST(HostWrapper, ReadsCallsParametersAndChevronLaunchesAndBlanksTheHostFunctionsLineForLine) {
  td::HostWrapper w = td::readHostWrapper("k.maca", kChevronDump);
  EXPECT_EQ(w.dialect, "maca");
  ASSERT_EQ(w.params.size(), 3u);
  EXPECT_TRUE(w.params[0].isPointer);
  EXPECT_EQ(w.params[0].type, td::ElemType::F16);
  EXPECT_FALSE(w.params[1].isPointer);
  EXPECT_EQ(w.params[1].type, td::ElemType::I32);
  EXPECT_TRUE(w.params[2].isStream);
  EXPECT_EQ(w.callLine, 16);
  ASSERT_EQ(w.launches.size(), 1u);
  const td::WrapperLaunch& l = w.launches[0];
  EXPECT_EQ(l.kernel, "main_kernel");
  EXPECT_EQ(l.line, 17);
  EXPECT_EQ(l.grid[0], "(( n + 127) / 128)");  // the cast dropped; the expression otherwise as written
  EXPECT_EQ(l.block[0], "128");
  EXPECT_EQ(l.shared, "98304");
  EXPECT_EQ(l.args, (std::vector<std::string>{"A", "n"}));
  EXPECT_EQ(w.templates, "tl_templates/maca");
  EXPECT_EQ(w.templatesLine, 1);
  EXPECT_EQ(w.initSharedLimit, 65536);
  EXPECT_EQ(std::count(w.deviceSource.begin(), w.deviceSource.end(), '\n'),
            std::count(kChevronDump, kChevronDump + strlen(kChevronDump), '\n'));
  EXPECT_EQ(w.deviceSource.find("call("), w.deviceSource.find("\"call(\" in a comment") + 1);
  EXPECT_EQ(w.deviceSource.find("snprintf"), std::string::npos);
  EXPECT_NE(w.deviceSource.find("A[threadIdx.x] = A[threadIdx.x];"), std::string::npos);
}

TEST(HostWrapper, ReadsCudaLaunchKernelExAndCooperativeLaunches) {
  const char* ex = R"(#include <tl_templates/cuda/gemm.h>
extern "C" __global__ void main_kernel(float* __restrict__ C, int m) { }
extern "C" int call(float* __restrict__ C, int m, cudaStream_t stream=cudaStreamDefault) {
	{
		cudaLaunchConfig_t config;
		config.gridDim = dim3(cdiv(m, 64), 2, 1);
		config.blockDim = dim3(128, 1, 1);
		config.dynamicSmemBytes = 16384;
		cudaLaunchKernelEx(&config, main_kernel, C, m);
	}
	void* second_args[] = {(void*)&C, (void*)&m};
	TILELANG_CHECK(mcLaunchCooperativeKernel((void*)second, dim3(4, 1, 1), dim3(64, 1, 1), second_args, 0, stream));
	return 0;
}
)";
  td::HostWrapper w = td::readHostWrapper("k.cu", ex);
  EXPECT_EQ(w.dialect, "cuda");
  ASSERT_EQ(w.launches.size(), 2u);
  EXPECT_EQ(w.launches[0].kernel, "main_kernel");
  EXPECT_EQ(w.launches[0].grid, (std::array<std::string, 3>{"cdiv(m, 64)", "2", "1"}));
  EXPECT_EQ(w.launches[0].shared, "16384");
  EXPECT_EQ(w.launches[0].args, (std::vector<std::string>{"C", "m"}));
  EXPECT_EQ(w.launches[1].kernel, "second");
  EXPECT_EQ(w.launches[1].grid[0], "4");
  EXPECT_EQ(w.launches[1].block[0], "64");
  EXPECT_EQ(w.launches[1].args, (std::vector<std::string>{"C", "m"}));
}

TEST(HostWrapper, WhatItCannotReadIsAnErrorAtTheLine) {
  try {
    td::readHostWrapper("k.cu", "extern \"C\" __global__ void k(float* x) {}\n");
    FAIL() << "a source without call() was read";
  } catch (const td::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no host function"), std::string::npos) << e.what();
  }
  try {
    td::readHostWrapper("k.cu", "extern \"C\" int call(float* x, cudaStream_t s) {\n  k<<<1, 1, 0, s>>>(x + 4);\n}\n");
    FAIL() << "an expression argument was read as a parameter";
  } catch (const td::InputError& e) {
    EXPECT_EQ(e.line, 2);
    EXPECT_NE(std::string(e.what()).find("'x + 4'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(td::hasHostWrapper("// extern \"C\" int call(float* x) {}\n"));
}

class GeneratedSource : public td::test::TempFolderTest {
 protected:
  const std::string rowScale = kDumps + "row_scale/";
  std::string rowScaleArgs(const std::string& file) const {
    return fmt::format("check {}{} --shape A=m,256 --shape S=m --shape B=m,256 --param m=6 --maca-templates {}templates",
                       rowScale, file, rowScale);
  }
};

std::vector<float> npyFloats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  size_t header = 10 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
  std::vector<float> v((bytes.size() - header) / sizeof(float));
  std::memcpy(v.data(), bytes.data() + header, v.size() * sizeof(float));
  return v;
}

TEST_F(GeneratedSource, CallsLaunchesRunInOrderOnTheBuffersTheEarlierOnesLeft) {
  td::test::Cli c = td::test::runCli(rowScaleArgs("kernel.maca") +
                                     fmt::format(" --init A=arange --format json --save-outputs {}", path("out")));
  ASSERT_EQ(c.code, 0) << c.output;
  nlohmann::json j = nlohmann::json::parse(c.output.substr(c.output.find('{')));
  ASSERT_EQ(j["launches"].size(), 2u) << c.output;
  EXPECT_EQ(j["launches"][1]["called_at"], rowScale + "kernel.maca:49");
  std::vector<float> s = npyFloats(path("out/S.npy")), b = npyFloats(path("out/B.npy"));
  ASSERT_EQ(s.size(), 6u);
  ASSERT_EQ(b.size(), 6u * 256);
  for (int r = 0; r < 6; ++r) {
    float sum = 65536.0f * r + 32640.0f;  // 256 consecutive integers from 256 r: exact in float
    EXPECT_EQ(s[r], sum) << "row " << r;
    for (int k = 0; k < 256; ++k) ASSERT_EQ(b[r * 256 + k], static_cast<float>(r * 256 + k) * sum) << r << "," << k;
  }
}

TEST_F(GeneratedSource, TheUnguardedTwinsReadPastTheBufferIsFoundAtItsLine) {
  td::test::Cli c = td::test::runCli(rowScaleArgs("kernel_unguarded.maca"));
  EXPECT_EQ(c.code, 1) << c.output;
  EXPECT_NE(c.output.find("global-out-of-bounds: read of 2 bytes at A[6, 0]"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("kernel_unguarded.maca:12:"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("in the launch at " + rowScale + "kernel_unguarded.maca:47"), std::string::npos) << c.output;
}

TEST_F(GeneratedSource, SharedMemoryInitRefusesIsReportedAtTheLaunchOnMetax) {
  td::test::Cli c = td::test::runCli(
      fmt::format("check {}shared_over_limit/kernel.maca --shape X=2,24576 --shape Y=2,24576", kDumps));
  EXPECT_EQ(c.code, 1) << c.output;
  EXPECT_NE(c.output.find("shared-memory-limit: 98304 bytes"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("metax-c500 allows 65536"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("init() refuses this source before call() runs"), std::string::npos) << c.output;
  td::test::Cli wave32 = td::test::runCli(
      fmt::format("check {}shared_over_limit/kernel.maca --shape X=2,24576 --shape Y=2,24576 --target nvidia-h200", kDumps));
  EXPECT_EQ(wave32.code, 6) << wave32.output;
  EXPECT_NE(wave32.output.find("shared_over_limit/kernel.maca:40: dialect = \"maca\""), std::string::npos) << wave32.output;
}

TEST_F(GeneratedSource, WhatTheDumpLeavesOpenIsAskedForAtItsLine) {
  td::test::Cli noShape = td::test::runCli(fmt::format(
      "check {}kernel.maca --shape A=m,256 --param m=6 --maca-templates {}templates", rowScale, rowScale));
  EXPECT_EQ(noShape.code, 2);
  EXPECT_NE(noShape.output.find("kernel.maca:46: buffer 'S' (float* __restrict__) has no shape"), std::string::npos)
      << noShape.output;
  td::test::Cli noScalar = td::test::runCli(fmt::format(
      "check {}kernel.maca --shape A=m,256 --shape S=m --shape B=m,256 --maca-templates {}templates", rowScale, rowScale));
  EXPECT_EQ(noScalar.code, 2);
  EXPECT_NE(noScalar.output.find("call() takes 'm' (int): give its value with --param m=VALUE"), std::string::npos)
      << noScalar.output;
  td::test::Cli noTemplates = td::test::runCli(
      fmt::format("check {}kernel.maca --shape A=m,256 --shape S=m --shape B=m,256 --param m=6", rowScale),
      "TILE_DOCTOR_PYTHON=/bin/false");
  EXPECT_EQ(noTemplates.code, 2);
  EXPECT_NE(noTemplates.output.find("kernel.maca:4: the source includes <tl_templates/maca/...>"), std::string::npos)
      << noTemplates.output;
  td::test::Cli notABuffer = td::test::runCli(rowScaleArgs("kernel.maca") + " --shape Q=4");
  EXPECT_EQ(notABuffer.code, 2);
  EXPECT_NE(notABuffer.output.find("'Q' is not a buffer call() takes (its buffers: A, S, B)"), std::string::npos)
      << notABuffer.output;
}

}  // namespace
