// The wave-64 dialects. HIP (TileLang's HIP lowering, the stand-in for MetaX's MACA): its prelude, the
// td.mfma pseudo-instruction and its CDNA3 layouts, HIP's shuffles in width-lane groups on a 64-lane
// wave, hip_bfloat16 rounding. MACA (tilelang-metax's output): MXC MMA after memcpy_async, reduce masks.
// Against results computed here from the bundles' own inputs.
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

#include "frontend/hip_dialect.h"
#include "instrument/ptx_catalogue.h"
#include "runtime/cpu/ptx_param.h"
#include "runtime/executor_limit.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

float bf16RoundedToNearestEven(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u = (u + 0x7fffu + ((u >> 16) & 1)) & 0xffff0000u;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

TEST(HipDialect, CatalogueKnowsTheMfmaPseudoInstruction) {
  auto f16 = parsePtx("td.mfma.f32.16x16x16.f16 {$0,$1,$2,$3}, {$4,$5}, {$6,$7}, {$8,$9,$10,$11};");
  ASSERT_TRUE(f16);
  EXPECT_EQ(f16->op, PtxOp::Mfma);
  EXPECT_EQ(f16->count, 16);
  EXPECT_TRUE(isWarpCollective(*f16));
  auto i8 = parsePtx("td.mfma.i32.16x16x32.i8 {$0,$1,$2,$3}, {$4,$5}, {$6,$7}, {$8,$9,$10,$11};");
  ASSERT_TRUE(i8);
  EXPECT_TRUE(i8->integer);
  auto f32 = parsePtx("td.mfma.f32.16x16x4.f32 {$0,$1,$2,$3}, {$4}, {$5}, {$6,$7,$8,$9};");
  ASSERT_TRUE(f32);
  EXPECT_EQ(f32->type, MmaType::F32);
  auto tf32 = parsePtx("td.mfma.f32.16x16x8.tf32 {$0,$1,$2,$3}, {$4,$5}, {$6,$7}, {$8,$9,$10,$11};");  // MetaX
  ASSERT_TRUE(tf32);
  EXPECT_EQ(tf32->type, MmaType::TF32);
  EXPECT_TRUE(parsePtx("td.mfma.i32.16x16x16.i8 {$0,$1,$2,$3}, {$4}, {$5}, {$6,$7,$8,$9};"));  // MetaX xcore1000
  EXPECT_FALSE(parsePtx("td.mfma.f32.16x16x32.f16 {$0,$1,$2,$3}, {$4,$5}, {$6,$7}, {$8,$9,$10,$11};"))
      << "K must match the input type";
  EXPECT_FALSE(parsePtx("td.mfma.f32.16x16x32.i8 {$0,$1,$2,$3}, {$4,$5}, {$6,$7}, {$8,$9,$10,$11};"))
      << "int8 inputs accumulate in i32";
}

TEST(HipDialect, TemplateAsmConstraintsBecomeNvptxRegisters) {
  EXPECT_EQ(hipTemplateText(R"(asm volatile("s_mov_b32 m0, %0" : : "s"(m0_value) : "memory");)"),
            R"(asm volatile("s_mov_b32 m0, %0" : : "r"(m0_value) : "memory");)");
  EXPECT_EQ(hipTemplateText(R"(::"s"(lds), "v"(voffset), "s" (rsrc))"), R"(::"r"(lds), "r"(voffset), "r"(rsrc))");
  EXPECT_EQ(hipTemplateText(R"(printf("%s", "v");)"), R"(printf("%s", "v");)") << "a string that is no constraint";
}

TEST(HipDialect, Wave64BundleGivesTheHandComputedResults) {
  CheckResult r = check(bundle("hip_wave64"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
  std::vector<double> A = values(r, "A"), B = values(r, "B"), C = values(r, "C"), D = values(r, "D");
  ASSERT_EQ(D.size(), 256u);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double want = C[i * 16 + j];
      for (int k = 0; k < 16; ++k) want += A[i * 16 + k] * B[k * 16 + j];
      ASSERT_NEAR(D[i * 16 + j], want, 1e-5) << "D[" << i << "][" << j << "]: MFMA 16x16x16 f16 layout";
    }
  std::vector<double> lanes = values(r, "lanes");
  for (int l = 0; l < 64; ++l) {
    int group32 = l % 32;
    EXPECT_EQ(lanes[l], group32 + 16 < 32 ? l + 16 : l) << "__shfl_down(l, 16, 32), lane " << l;
    EXPECT_EQ(lanes[64 + l], l ^ 32) << "__shfl_xor(l, 32), lane " << l;
    EXPECT_EQ(lanes[128 + l], (l & ~15) + 3) << "__shfl(l, 3, 16), lane " << l;
    EXPECT_EQ(lanes[192 + l], 64) << "the wave size";
  }
  std::vector<double> rounded = values(r, "rounded");
  for (int l = 0; l < 64; ++l)
    EXPECT_EQ(rounded[l], bf16RoundedToNearestEven(static_cast<float>(C[l]))) << "hip_bfloat16(" << C[l] << ")";
}

// D = A·B + C for an M×K by K×N tile, the bundle's row-major buffers.
void expectProduct(const CheckResult& r, const std::string& a, const std::string& b, const std::string& c,
                   const std::string& d, int M, int K, double tolerance) {
  std::vector<double> A = values(r, a), B = values(r, b), C = values(r, c), D = values(r, d);
  ASSERT_EQ(D.size(), static_cast<size_t>(M * M)) << d;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M; ++j) {
      double want = C[i * M + j];
      for (int k = 0; k < K; ++k) want += A[i * K + k] * B[k * M + j];
      ASSERT_NEAR(D[i * M + j], want, tolerance) << d << "[" << i << "][" << j << "]";
    }
}

TEST(HipDialect, EveryMfmaShapeGivesTheProductInItsLayout) {
  CheckResult r = check(bundle("hip_mfma_kinds"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
  expectProduct(r, "Ah", "Bh", "C32", "Dh32", 32, 8, 1e-5);    // 32x32x8 f16: 16 accumulators a lane
  expectProduct(r, "Ab", "Bb", "C32", "Db32", 32, 8, 1e-5);    // 32x32x8 bf16
  expectProduct(r, "Af", "Bf", "C16", "Df", 16, 4, 1e-5);      // 16x16x4 f32
  expectProduct(r, "Ab16", "Bb16", "C16", "Db16", 16, 16, 1e-5);
  expectProduct(r, "Ai", "Bi", "Ci", "Di", 16, 32, 0);         // 16x16x32 i8, exact in int32
  expectProduct(r, "Ah32", "Bh32", "C16", "Dh1632", 16, 32, 1e-5);  // 16x16x32 f16 (gfx950)
  expectProduct(r, "Ab32", "Bb32", "C16", "Db1632", 16, 32, 1e-5);  // 16x16x32 bf16 (gfx950)
}

TEST(HipDialect, ThirtyTwoByThirtyTwoTilesKeepRowsInRunsOfFour) {
  // The AMD layout of a 32x32 result: lanes 0-31 hold rows 0-3, 8-11, 16-19, 24-27 of their column in
  // registers 0-15, lanes 32-63 rows 4-7, 12-15, ... A catalogue statement for each shape it knows.
  auto wide = parsePtx(
      "td.mfma.f32.32x32x8.f16 {$0,$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15}, {$16,$17}, {$18,$19}, "
      "{$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31,$32,$33,$34,$35};");
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->k, 32);
  EXPECT_EQ(wide->count, 8);
  EXPECT_FALSE(parsePtx("td.mfma.f32.32x32x16.f16 {$0}, {$1,$2}, {$3,$4}, {$5};")) << "32x32 f16 has K = 8";
  EXPECT_FALSE(parsePtx("td.mfma.i32.32x32x8.i8 {$0}, {$1,$2}, {$3,$4}, {$5};")) << "no 32x32 int8 form here";
}

TEST(HipDialect, MfmaOnA32LaneTargetIsRefusedByName) {
  try {
    check(bundle("hip_wave64"), "nvidia-h200");
    FAIL() << "an MFMA needs a 64-lane wave";
  } catch (const ExecutorCannotRun& e) {
    EXPECT_NE(std::string(e.what()).find("a 64-lane wave instruction"), std::string::npos) << e.what();
    EXPECT_NE(e.loc.file.find("kernel.hip"), std::string::npos) << e.loc.file;
  }
}

// The MACA dialect: tilelang-metax-style code through the MACA prelude.
TEST(MacaDialect, MmaTileThroughMemcpyAsyncGivesTheProduct) {
  CheckResult r = check(bundle("maca_wave64"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
  std::vector<double> A = values(r, "A"), B = values(r, "B"), C = values(r, "C");
  ASSERT_EQ(C.size(), 256u);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      double want = 0;
      for (int k = 0; k < 16; ++k) want += A[m * 16 + k] * B[k * 16 + n];
      ASSERT_NEAR(C[m * 16 + n], want, 1e-5) << "C[" << m << "][" << n << "]: mma(B_local, A_local, acc) in TileLang's order";
    }
}

TEST(MacaDialect, ReduceWithA32BitMaskWorksOn32LaneGroupsAndIsReported) {
  CheckResult r = check(bundleFile("maca_wave64", "bundle_wave_sum"), "metax-c500");
  std::vector<double> out = values(r, "out");
  for (int l = 0; l < 64; ++l) {
    EXPECT_EQ(out[l], 2016) << "the 64-bit mask: the whole wave, lane " << l;
    EXPECT_EQ(out[64 + l], l < 32 ? 496 : 1520) << "the 32-bit mask: the lane's group of 32, lane " << l;
  }
  ASSERT_EQ(r.report.findings.size(), 1u);
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "warp-size-assumption");
  EXPECT_EQ(f.loc.line, 32u) << "the __reduce_add_sync(0xffffffffu, v) line";
  EXPECT_NE(f.loc.file.find("kernel.maca"), std::string::npos) << f.loc.file;
}

// tests/bundles/maca_sdk: the SDK as tilelang-metax's output and templates use it.
TEST(MacaDialect, TicketsTypedByWidthAndWaitedOneByOneGiveEachRow) {
  CheckResult r = check(bundle("maca_sdk"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
  std::vector<double> out = values(r, "out");
  ASSERT_EQ(out.size(), 256u);
  for (int t = 0; t < 128; ++t) {  // x = arange: the other wave's copy of each row
    EXPECT_EQ(out[t], (4 * t + 257) % 512) << "row 0, thread " << t;
    EXPECT_EQ(out[128 + t], 512 + (4 * t + 258) % 512) << "row 1 after its own ticket, thread " << t;
  }
}

TEST(MacaDialect, AWaveScopeWaitLeavesTheOtherWavesCopyUnordered) {
  CheckResult r = check(bundleFile("maca_sdk", "bundle_wave_scope"), "metax-c500");
  ASSERT_FALSE(r.report.findings.empty());
  const Finding& f = r.report.findings[0];
  EXPECT_EQ(f.kind, "shared-race-raw");
  EXPECT_EQ(f.loc.line, 28u) << "the read of row 0 after __builtin_mxc_barrier_and_wait4(0, ticket)";
}

TEST(MacaDialect, AReadBeforeItsTicketsWaitIsARaceWithTheCopyLanding) {
  CheckResult r = check(bundleFile("maca_sdk", "bundle_early_read"), "metax-c500");
  ASSERT_FALSE(r.report.findings.empty());
  bool readLine = false;
  for (const Finding& f : r.report.findings) {
    EXPECT_TRUE(f.kind == "shared-race-raw" || f.kind == "shared-race-war") << f.kind << ": " << f.title;
    readLine |= f.loc.line == 30u || f.partner.line == 30u;
    bool explained = false;
    for (const std::string& n : f.notes) explained |= n.find("asynchronous copy") != std::string::npos;
    EXPECT_TRUE(explained) << f.title;
  }
  EXPECT_TRUE(readLine) << "row 1 read before barrier_arrive_and_wait(ticket[1])";
}

TEST(MacaDialect, ShufflesAndSyncwarpIgnoreTheirMasksWithoutAWarning) {
  CheckResult r = check(bundleFile("maca_sdk", "bundle_combine"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().kind << ": " << r.report.findings.front().title;
  std::vector<double> out = values(r, "out");
  ASSERT_EQ(out.size(), 192u);
  for (int l = 0; l < 64; ++l) {
    EXPECT_EQ(out[l], 1128) << "the 64-bit xor butterfly over the wave (0 + ... + 47), lane " << l;
    EXPECT_EQ(out[64 + l], 5) << "__shfl_sync(0xffffffff, v, 5) reaches every lane of the wave, lane " << l;
    EXPECT_EQ(out[128 + l], 7) << "a half shuffled under the 64-bit mask, lane " << l;
  }
}

TEST(MacaDialect, AnUnguardedGatherIsFoundAtItsLine) {
  CheckResult r = check(bundleFile("maca_sdk", "bundle_combine_bug"), "metax-c500");
  ASSERT_FALSE(r.report.findings.empty());
  EXPECT_EQ(r.report.findings[0].kind, "global-out-of-bounds");
  EXPECT_EQ(r.report.findings[0].loc.line, 51u);
}

TEST(MacaDialect, BracedMmaOperandsAsTheTemplatesWriteThem) {
  CheckResult r = check(bundleFile("maca_sdk", "bundle_mma"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
  std::vector<double> a = values(r, "a"), b = values(r, "b"), ai = values(r, "ai"), bi = values(r, "bi");
  std::vector<double> c = values(r, "c"), ci = values(r, "ci"), cd = values(r, "cd");
  auto tf32 = [](double v) {  // the upper 19 bits of the fp32 operand
    float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u &= 0xffffe000u;
    std::memcpy(&f, &u, 4);
    return static_cast<double>(f);
  };
  auto byte = [](double word, int e) { return static_cast<int>(static_cast<int8_t>(static_cast<uint32_t>(static_cast<int32_t>(word)) >> (8 * e))); };
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double want = 0, dwant = 0;
      long long iwant = 0;
      for (int q = 0; q < 4; ++q) {  // lane i + 16q holds row i's and lane j + 16q column j's k-group q
        want += tf32(a[i + 16 * q]) * tf32(b[j + 16 * q]);
        dwant += a[i + 16 * q] * b[j + 16 * q];
        for (int e = 0; e < 4; ++e) iwant += byte(ai[i + 16 * q], e) * byte(bi[j + 16 * q], e);
      }
      ASSERT_NEAR(c[i * 16 + j], want, 1e-4 * (1 + std::fabs(want))) << "tf32 {a, 0.0f}: D[" << i << "][" << j << "]";
      ASSERT_EQ(ci[i * 16 + j], iwant) << "i8 {a, 0}: D[" << i << "][" << j << "]";
      ASSERT_NEAR(cd[i * 16 + j], dwant, 1e-12 * (1 + std::fabs(dwant))) << "f64: D[" << i << "][" << j << "]";
    }
}

TEST(MacaDialect, RowShufflesExchangeWithinSixteenLaneRowsAsTheForksBuildXorOnThem) {
  CheckResult r = check(bundleFile("maca_sdk", "bundle_rows"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().title;
  std::vector<double> in = values(r, "in"), out = values(r, "out");
  ASSERT_EQ(out.size(), 384u);
  for (int l = 0; l < 64; ++l) {
    for (int m = 0; m < 4; ++m)
      ASSERT_EQ(out[64 * m + l], in[l ^ (1 << m)]) << "xor " << (1 << m) << ", lane " << l;
    ASSERT_EQ(out[256 + l], in[(l & ~15) | (15 - l % 16)]) << "row mirror, lane " << l;
    bool written = (l / 16) % 2 == 0;  // row_mask 0x5: rows 0 and 2; row_shl 1: lane 15 of a row has no source
    ASSERT_EQ(out[320 + l], !written ? -1 : l % 16 == 15 ? 0 : in[l + 1]) << "row_shl 1, lane " << l;
  }
}

TEST(MacaDialect, RefusedOnAWave32Target) {
  try {
    check(bundle("maca_sdk"), "nvidia-h200");
    FAIL() << "a MACA bundle ran on a 32-lane target";
  } catch (const ExecutorCannotRun& e) {
    EXPECT_NE(std::string(e.what()).find("64-lane waves"), std::string::npos) << e.what();
  }
}

TEST(MacaDialect, CatalogueKnowsTheTicketStatements) {
  auto commit = parsePtx("td.cp.async.commit_ticket $0;");
  ASSERT_TRUE(commit);
  EXPECT_EQ(commit->op, PtxOp::CpAsyncCommit);
  EXPECT_TRUE(commit->ticket);
  auto wait = parsePtx("td.cp.async.wait_ticket $0;");
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->op, PtxOp::CpAsyncWait);
  EXPECT_TRUE(wait->ticket);
  EXPECT_TRUE(cpu::unpackPtxParam(PtxOp::CpAsyncWait, cpu::packPtxParam(*wait)).ticket);
  EXPECT_FALSE(parsePtx("cp.async.commit_group;")->ticket);
}

TEST(MacaDialect, SixteenBitAtomicsTouchOnlyTheirTwoBytes) {
  CheckResult r = check(bundleFile("maca_sdk", "bundle_atomics"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().kind << ": " << r.report.findings.front().title;
  EXPECT_EQ(values(r, "h"), std::vector<double>{64}) << "64 atomicAdd(__half*) on a one-element buffer";
  EXPECT_EQ(values(r, "b"), std::vector<double>{64}) << "64 atomicAdd(maca_bfloat16*)";
}

// An attention tile on the MXC MMA (tests/bundles/maca_attention): both products and the 16-lane row softmax
// against a double-precision reference from the same inputs (P rounds to half: 1e-3 absolute); the twin that
// reads the key rows past n is found at its load.
TEST(MacaDialect, AnAttentionTileOnTheMmaMatchesItsReferenceAndTheUnguardedKeysAreFound) {
  CheckResult r = check(bundle("maca_attention"), "metax-c500");
  EXPECT_TRUE(r.report.findings.empty()) << r.report.findings.front().kind << ": " << r.report.findings.front().title;
  std::vector<double> q = values(r, "Q"), k = values(r, "K"), v = values(r, "V"), o = values(r, "O");
  const int n = 11;
  ASSERT_EQ(k.size(), 16u * n);
  for (int i = 0; i < 16; ++i) {
    double s[16], m = -INFINITY, sum = 0;
    for (int j = 0; j < n; ++j) {
      s[j] = 0;
      for (int d = 0; d < 16; ++d) s[j] += q[i * 16 + d] * k[j * 16 + d];
      s[j] *= 0.25;
      m = std::max(m, s[j]);
    }
    for (int j = 0; j < n; ++j) sum += s[j] = std::exp(s[j] - m);
    for (int d = 0; d < 16; ++d) {
      double ref = 0;
      for (int j = 0; j < n; ++j) ref += s[j] / sum * v[j * 16 + d];
      ASSERT_NEAR(o[i * 16 + d], ref, 1e-3) << "O[" << i << ", " << d << "]";
    }
  }
  CheckResult twin = check(bundleFile("maca_attention", "bundle_unguarded"), "metax-c500");
  const Finding* f = find(twin, "global-out-of-bounds", 30);
  ASSERT_NE(f, nullptr) << twin.report.findings.size();
  EXPECT_NE(f->title.find("K[11, 0]"), std::string::npos) << f->title;
}
