// The inline-PTX catalogue: statements recognised as TileLang's templates write them, and the CPU
// executor's per-lane semantics of cp.async, ldmatrix and mma.sync against hand-computed layouts.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "frontend/input_error.h"
#include "instrument/ptx_catalogue.h"
#include "runtime/executor_limit.h"
#include "model/rules.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

TEST(PtxCatalogue, RecognisesTheStatementsAndNamesHopperOnlyOnes) {
  auto cp = parsePtx("cp.async.cg.shared.global [$0], [$1], 16;\n");
  ASSERT_TRUE(cp);
  EXPECT_EQ(cp->op, PtxOp::CpAsync);
  EXPECT_EQ(cp->count, 16);
  auto zfill = parsePtx("cp.async.ca.shared.global [$0], [$1], 4, $2;");
  ASSERT_TRUE(zfill);
  EXPECT_TRUE(zfill->srcSize);
  EXPECT_FALSE(parsePtx("cp.async.ca.shared.global [$0], [$1], 12;"));  // not a legal size
  auto wait = parsePtx("cp.async.wait_group 1;");
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->count, 1);
  EXPECT_TRUE(parsePtx("cp.async.wait_all;")->waitAll);
  auto ld = parsePtx("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {$0, $1}, [$2];");
  ASSERT_TRUE(ld);
  EXPECT_EQ(ld->count, 2);
  EXPECT_TRUE(ld->trans);
  EXPECT_TRUE(parsePtx("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, "
                       "{$10,$11,$12,$13};"));
  auto i8 = parsePtx("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {$0,  $1,  $2,  $3},{$4,  $5,  $6,  $7},"
                     "{$8,  $9},{$10, $11, $12, $13};\n");  // CUTLASS's SM80_16x8x32_S32S8S8S32_TN
  ASSERT_TRUE(i8);
  EXPECT_TRUE(i8->integer);
  EXPECT_EQ(i8->k, 32);
  EXPECT_FALSE(i8->aUnsigned || i8->bUnsigned || i8->satfinite);
  auto u8 = parsePtx("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.s8.s32 {$0,$1,$2,$3}, {$4,$5}, {$6}, "
                     "{$7,$8,$9,$10};");
  ASSERT_TRUE(u8);
  EXPECT_TRUE(u8->satfinite && u8->aUnsigned && !u8->bUnsigned);
  EXPECT_EQ(u8->k, 16);
  auto e4 = parsePtx("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, "
                     "{$10,$11,$12,$13};\n");  // CUTLASS's SM89_16x8x32_F32E4M3E5M2F32_TN
  ASSERT_TRUE(e4);
  EXPECT_TRUE(e4->fp8 && !e4->aUnsigned && e4->bUnsigned && !e4->f16Accum);
  EXPECT_FALSE(parsePtx("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f16 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, "
                        "{$10,$11};")) << "accumulator and result types differ";
  // TileLang's instruction/mma.h writes the operand groups without spaces between them.
  EXPECT_TRUE(parsePtx("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,  $1,  $2,  $3},{$4,  $5,  $6,  $7},"
                       "{$8,  $9},{$10, $11, $12, $13};\n"));
  // The spellings of TileLang's ldsm.h and copy.h (shape after the count, size as an "n" operand).
  auto tl = parsePtx("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {$0, $1, $2, $3}, [$4];\n");
  ASSERT_TRUE(tl);
  EXPECT_EQ(tl->count, 4);
  EXPECT_TRUE(tl->trans);
  EXPECT_TRUE(parsePtx("stmatrix.sync.aligned.x2.trans.m8n8.shared.b16 [$0], {$1, $2};\n"));
  auto tlcp = parsePtx("cp.async.cg.shared.global.L2::128B [$0], [$1], $2, $3;");
  ASSERT_TRUE(tlcp);
  EXPECT_EQ(tlcp->sizeOperand, 2);
  EXPECT_EQ(tlcp->srcSizeOperand, 3);
  EXPECT_FALSE(parsePtx("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 ..."));
  EXPECT_EQ(ptxLimitation("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 ..."), "Hopper-only (wgmma)");
  EXPECT_EQ(ptxLimitation("cp.async.bulk.tensor.2d.shared::cluster.global [$0], [$1];"), "Hopper-only (TMA bulk copy)");
  // Families the executor knows and does not emulate are named by their main instruction, past the moves.
  EXPECT_EQ(ptxLimitation("{add.f16 $0,$1,$2;\n}"), "half/bfloat16 arithmetic or comparison written as PTX (add.f16), not emulated");
  EXPECT_EQ(ptxLimitation("{.reg .b32 a,b;\n mov.b32 a, {0, $1};\n mov.b32 b, {0, $2};\n set.lt.f32.f32 $0, a, b;}"),
            "floating-point arithmetic or comparison written as PTX (set.lt.f32.f32), not emulated");
  EXPECT_EQ(ptxLimitation("ld.global.cg.b16 $0, [$1];"), "a cache-hinted global load or store (ld.global.cg.b16), not emulated");
  EXPECT_EQ(ptxLimitation("nanosleep.u32 100;"), "") << "no family: the generic refusal";
}

TEST(PtxSemantics, CpAsyncLdmatrixMmaTile) {
  CheckResult r = check(bundle("ptx_mma"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto A = values(r, "A"), B = values(r, "B"), C = values(r, "C"), frag = values(r, "frag");
  // mma.sync: C = A (16x16) x B (16x8), fp32 accumulation of fp16 products.
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      double ref = 0;
      for (int k = 0; k < 16; ++k) ref += A[i * 16 + k] * B[k * 8 + j];
      ASSERT_NEAR(C[i * 8 + j], ref, 1e-4) << i << "," << j;
    }
  // ldmatrix.x4 of the A tile: lane l's register m holds A[(g + 8(m%2))][2t + 8(m/2)] and the next column,
  // low half first (g = l/4, t = l%4) — the A-fragment layout of mma.m16n8k16.
  auto bits = [](double v) {
    _Float16 h = static_cast<_Float16>(v);
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return uint32_t(u);
  };
  for (int l = 0; l < 32; ++l)
    for (int m = 0; m < 4; ++m) {
      int row = l / 4 + 8 * (m % 2), col = 2 * (l % 4) + 8 * (m / 2);
      uint32_t want = bits(A[row * 16 + col]) | (bits(A[row * 16 + col + 1]) << 16);
      ASSERT_EQ(static_cast<uint32_t>(frag[l * 4 + m]), want) << "lane " << l << " register " << m;
    }
}

TEST(PtxSemantics, UnknownStatementStopsTheCpuRunWithItsLine) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("td_asm_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.cu") << "__global__ void k(float* o) {\n  asm volatile(\"nanosleep.u32 100;\");\n  o[0] = 1.0f;\n}\n";
  std::ofstream(dir / "bundle.toml") << "[kernel]\nsource = \"k.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [1]\n"
                                        "[[args]]\nname = \"o\"\ntype = \"float*\"\nshape = [1]\n";
  Cli c = runCli("check " + (dir / "bundle.toml").string());
  EXPECT_EQ(c.code, 6) << "not bad input: this executor cannot run it\n" << c.output;
  EXPECT_NE(c.output.find("k.cu:2"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("nanosleep.u32 100;"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("--executor cuda"), std::string::npos) << c.output;
  fs::remove_all(dir);
}

TEST(PtxBounds, CpAsyncDestinationPastTheSharedArrayIsCaughtInsideTheAsm) {
  CheckResult r = check(bundleFile("ptx_mma", "cp_async_oob"));
  ASSERT_NE(find(r, "shared-out-of-bounds"), nullptr);
  const Finding& f = *find(r, "shared-out-of-bounds");
  // The skipped copy leaves two rows of Bs unwritten, which the mma then reads: the init check's finding.
  ASSERT_NE(find(r, "uninitialized-shared-read"), nullptr);
  EXPECT_EQ(find(r, "uninitialized-shared-read")->buffer, "Bs");
  EXPECT_EQ(r.report.findings.size(), 2u);
  EXPECT_EQ(f.loc.line, 14u);
  EXPECT_NE(f.loc.file.find("ptx_mma/mma.cu"), std::string::npos) << f.loc.file;
  EXPECT_EQ(f.buffer, "Bs");
  EXPECT_EQ(f.access, "write");
  EXPECT_EQ(f.width, 16u);
  EXPECT_EQ(f.coords, (std::vector<int64_t>{16, 0}));
  EXPECT_EQ(f.count, 16u);
}

TEST(PtxSemantics, MmaVariantsStmatrixShflReduxNamedBarriers) {
  CheckResult r = check(bundle("ptx_ops"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto A = values(r, "A"), B = values(r, "B"), Ab = values(r, "Ab"), Bb = values(r, "Bb");
  auto At = values(r, "At"), Bt = values(r, "Bt");
  auto matmul = [](const std::vector<double>& X, const std::vector<double>& Y, int K, int ldx, int i, int j) {
    double s = 0;
    for (int k = 0; k < K; ++k) s += X[i * ldx + k] * Y[k * 8 + j];
    return s;
  };
  auto tf32 = [](double v) {  // keep the upper 19 bits of the fp32 value
    float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u &= 0xffffe000u;
    std::memcpy(&f, &u, 4);
    return static_cast<double>(f);
  };
  auto Dbf = values(r, "Dbf"), Dh = values(r, "Dh"), Dk8 = values(r, "Dk8"), Dtf = values(r, "Dtf");
  std::vector<double> Att(At.size()), Btt(Bt.size());
  for (size_t i = 0; i < At.size(); ++i) Att[i] = tf32(At[i]);
  for (size_t i = 0; i < Bt.size(); ++i) Btt[i] = tf32(Bt[i]);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      ASSERT_NEAR(Dbf[i * 8 + j], matmul(Ab, Bb, 16, 16, i, j), 1e-4) << "bf16 " << i << "," << j;
      double h = matmul(A, B, 16, 16, i, j);
      ASSERT_NEAR(Dh[i * 8 + j], h, 2e-3 * std::max(1.0, std::abs(h))) << "f16 accumulate " << i << "," << j;
      ASSERT_NEAR(Dk8[i * 8 + j], matmul(A, B, 8, 16, i, j), 1e-4) << "m16n8k8 " << i << "," << j;
      ASSERT_NEAR(Dtf[i * 8 + j], matmul(Att, Btt, 8, 8, i, j), 1e-5) << "tf32 " << i << "," << j;
    }
  EXPECT_EQ(values(r, "Aback"), A) << "stmatrix writes the fragments ldmatrix would read";
  auto shfl = values(r, "shfl"), red = values(r, "red"), order = values(r, "order");
  for (int l = 0; l < 32; ++l) {
    ASSERT_EQ(shfl[l], (l ^ 3) * 10);
    ASSERT_EQ(red[l], 336);       // sum of lane - 5 over 32 lanes
    ASSERT_EQ(red[32 + l], 26);   // max
    ASSERT_EQ(order[l], 7) << "bar.sync 1, 64 waits for the bar.arrive of the producing warp";
  }
  auto vote = values(r, "vote"), packh = values(r, "packh"), packb = values(r, "packb");
  for (int l = 0; l < 32; ++l) {
    ASSERT_EQ(static_cast<uint32_t>(vote[l]), 0x49249249u) << "ballot of lane % 3 == 0";
    ASSERT_EQ(vote[32 + l], 1) << "all lanes < 40";
    ASSERT_EQ(vote[64 + l], 1) << "any: lane 31 votes yes";
    ASSERT_EQ(packh[2 * l + 1], l * 0.5) << "high half";
    ASSERT_EQ(packh[2 * l], 1.0 + std::nearbyint(l / 4.0) / 1024) << "fp16 rounding to nearest even, lane " << l;
    ASSERT_EQ(packb[2 * l + 1], l * 0.5);
    ASSERT_EQ(packb[2 * l], 1.0 + std::nearbyint(l / 2.0) / 128) << "bf16 rounding to nearest even, lane " << l;
  }
}

// A cp.async is in flight until its own thread waits for it: a neighbour's read ordered only by a barrier
// before that wait races with the copy's landing (tests/bundles/cp_async_wait).
TEST(PtxRaces, ACopyWaitedForOnlyAfterTheBarrierRacesWithTheNeighboursRead) {
  CheckResult ok = check(bundle("cp_async_wait"));
  EXPECT_TRUE(ok.report.findings.empty()) << ok.report.findings.front().title;
  auto in = values(ok, "in"), out = values(ok, "out");
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 4; ++c) ASSERT_EQ(out[4 * r + c], in[4 * ((r + 1) % 64) + c]) << r << "," << c;
  CheckResult bug = check(std::string(TD_TESTS_DIR) + "/bundles/cp_async_wait/bundle_bug.toml");
  ASSERT_FALSE(bug.report.findings.empty()) << "cp.async.wait_group after __syncthreads";
  for (const Finding& f : bug.report.findings) {
    EXPECT_TRUE(f.kind == "shared-race-war" || f.kind == "shared-race-raw") << f.kind << ": " << f.title;
    EXPECT_TRUE(f.loc.line == 19u || f.partner.line == 19u) << "the neighbour's read: " << f.title;
  }
}

TEST(PtxBounds, TileLangConditionalCopyReadsNothingPastTheEnd) {
  CheckResult ok = check(bundle("cp_async_tl"));
  EXPECT_TRUE(ok.report.findings.empty()) << "a zero-fill size of 0 reads nothing";
  auto A = values(ok, "A"), out = values(ok, "out");
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 8; ++c) ASSERT_EQ(out[r * 8 + c], r < 20 ? A[r * 8 + c] : 0.0) << r << "," << c;
  CheckResult bug = check(std::string(TD_TESTS_DIR) + "/bundles/cp_async_tl/bundle_bug.toml");
  ASSERT_EQ(bug.report.findings.size(), 1u);
  const Finding& f = bug.report.findings[0];
  EXPECT_EQ(f.kind, "global-out-of-bounds");
  EXPECT_EQ(f.buffer, "A");
  EXPECT_EQ(f.coords, (std::vector<int64_t>{20, 0}));
  EXPECT_EQ(f.count, 12u);  // rows 20..31
  EXPECT_EQ(f.width, 16u);
}

TEST(PtxSemantics, MbarrierProducerConsumer) {
  EXPECT_EQ(parsePtx("mbarrier.init.shared.b64 [$1], $0;")->op, PtxOp::MbarInit);
  EXPECT_EQ(parsePtx("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];")->noinc, true);
  EXPECT_EQ(ptxLimitation("mbarrier.arrive.expect_tx.shared.b64 _, [$1], $0;"), "Hopper-only (mbarrier transaction counts)");
  CheckResult r = check(bundle("mbarrier"), "nvidia-h200", {}, 10);
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto out = values(r, "out"), early = values(r, "early");
  EXPECT_EQ(early[0], 0.0) << "try_wait before any arrival: phase 0 not complete";
  for (int l = 0; l < 32; ++l) {
    ASSERT_EQ(out[l], 16 * l + 6) << "warp 0 read the copies after phase 0 completed";
    ASSERT_EQ(out[32 + l], (4 * l + 1) * 2) << "warp 1 continued after phase 1";
  }
}

TEST(PtxSemantics, WarpMatrixInstructionsRefuseAWave64Target) {
  try {
    check(bundle("ptx_mma"), "metax-c500");
    FAIL() << "mma.sync/ldmatrix on 64-lane waves must stop before launch";
  } catch (const ExecutorCannotRun& e) {
    EXPECT_NE(std::string(e.what()).find("32-lane NVIDIA warp instruction"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("64 lanes"), std::string::npos);
    EXPECT_GT(e.loc.line, 0u) << "the statement's source line";
  }
}

// A statement the CPU executor does not emulate is its own outcome (exit 6, not bad input), named with
// the kernel's line and the SDK function it came from.
TEST(PtxSemantics, AnUnknownStatementNamesItsHeaderFunctionAndExitsSix) {
  try {
    check(bundle("unknown_ptx"));
    FAIL() << "cvt.rz.f16.f32 is not emulated";
  } catch (const ExecutorCannotRun& e) {
    EXPECT_NE(std::string(e.what()).find("cvt.rz.f16.f32"), std::string::npos) << e.what();
    EXPECT_NE(e.loc.helper.find("__float2half_rz"), std::string::npos) << e.where();
    EXPECT_EQ(e.loc.line, 7u) << e.where();
  }
  Cli r = runCli("check " + bundle("unknown_ptx"));
  EXPECT_EQ(r.code, 6) << r.output;
  EXPECT_NE(r.output.find("cannot run"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--executor cuda"), std::string::npos) << r.output;
}

// The CUDA SDK's scalar half/bfloat16 helpers (one inline-PTX statement each) against values worked
// out here: rounding to nearest, sign flips and clears, and the 16-bit halves a mov.b32 packs.
TEST(PtxCatalogue, SdkHalfAndBfloat16ScalarHelpersRunOnTheCpu) {
  EXPECT_EQ(parsePtx("{  cvt.f32.f16 $0, $1;}\n")->op, PtxOp::HalfScalar);
  EXPECT_EQ(parsePtx("{ mov.b32 $0, {0,$1};}\n")->valueOperand, -1);
  EXPECT_EQ(parsePtx("{neg.f16x2 $0,$1;\n}")->count, 2);
  auto high = parsePtx("{.reg .f16 low,high;\n  mov.b32 {low,high},$1;\n  cvt.f32.f16 $0, high;}\n");  // __high2float
  ASSERT_TRUE(high);
  EXPECT_EQ(high->count, 1);
  EXPECT_FALSE(parsePtx("{  cvt.rz.f16.f32 $0, $1;}\n"));  // other roundings are not emulated: refused
  CheckResult r = check(bundle("half_scalars"));
  ASSERT_TRUE(r.report.findings.empty());
  std::vector<double> x = values(r, "X");
  auto halfBits = [](double v, ElemType t) {
    uint16_t bits = 0;
    storeElem(t, &bits, v);  // round to nearest even
    return bits;
  };
  for (size_t i = 0; i < x.size(); ++i) {
    uint16_t h = halfBits(x[i], ElemType::F16), bh = halfBits(x[i], ElemType::BF16);
    double hv = loadElem(ElemType::F16, &h), bv = loadElem(ElemType::BF16, &bh);
    EXPECT_LE(std::fabs(hv - x[i]), std::ldexp(std::fabs(x[i]), -11)) << "half within half an ulp";
    EXPECT_EQ(values(r, "Narrowed")[i], hv) << i;
    EXPECT_EQ(values(r, "Widened")[i], hv) << i;
    EXPECT_EQ(values(r, "Negated")[i], -hv) << i;
    EXPECT_EQ(values(r, "Absolute")[i], std::fabs(hv)) << i;
    EXPECT_EQ(values(r, "BNarrowed")[i], bv) << i;
    EXPECT_EQ(values(r, "BWidened")[i], bv) << i;
    uint16_t neg = h ^ 0x8000;
    EXPECT_EQ(values(r, "Pairs")[i], static_cast<double>(h | (uint32_t{neg} << 16))) << i;
    EXPECT_EQ(values(r, "NegPairs")[i], static_cast<double>(neg | (uint32_t{h} << 16))) << i;
  }
}

// The SDK's half/bfloat16 arithmetic and comparisons (cuda_fp16.hpp, cuda_bf16.hpp: add, sub, mul, fma and
// their .sat/.relu forms, min/max, setp/set comparisons, the x2 pairs) against results worked out here:
// the exact result in double, rounded once to nearest even; NaN results canonical (0x7fff).
TEST(PtxCatalogue, SdkHalfAndBfloat16ArithmeticRunsOnTheCpu) {
  auto add = parsePtx("{add.sat.f16x2 $0,$1,$2;\n}");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->mode, static_cast<int>(HalfScalarKind::Arith));
  EXPECT_TRUE(add->half.saturate);
  EXPECT_EQ(add->half.lanes, 2);
  auto geu = parsePtx("{ .reg .pred __$$temp3;\n  setp.geu.bf16  __$$temp3, $1, $2;\n  selp.u16 $0, 1, 0, __$$temp3;}");
  ASSERT_TRUE(geu);
  EXPECT_EQ(geu->half.compare, HalfCompare::Ge);
  EXPECT_TRUE(geu->half.unordered && geu->half.bf16);
  auto swap = parsePtx("{.reg .f16 low,high;\n  mov.b32 {low,high}, $1;\n  mov.b32 $0, {high,low};}\n");
  ASSERT_TRUE(swap);
  EXPECT_EQ(swap->half.pick[0], 3);  // $1's high half goes low
  EXPECT_EQ(swap->half.pick[1], 2);  // and its low half high
  EXPECT_FALSE(parsePtx("{add.rz.f16 $0,$1,$2;\n}"));  // other roundings are not emulated

  // The kernel's one deliberate overflow (60000 * 2 in half) is the numerics family's only finding.
  CheckResult r = check(bundle("half_arithmetic"));
  ASSERT_EQ(r.report.findings.size(), 1u) << r.report.findings.front().title;
  EXPECT_EQ(r.report.findings[0].kind, rule::FpOverflow);
  EXPECT_EQ(r.report.findings[0].loc.line, 55u);
  auto round = [](double v, ElemType t) {
    uint16_t bits = 0;
    storeElem(t, &bits, v);
    return std::isnan(v) ? uint16_t{0x7fff} : bits;
  };
  auto value = [](uint16_t bits, ElemType t) { return loadElem(t, &bits); };
  auto clamp01 = [](double v) { return std::isnan(v) ? 0.0 : std::min(std::max(v, 0.0), 1.0); };
  auto bitsAt = [&](const char* name, uint32_t width) {  // int16 buffers hold the bits signed
    std::vector<uint32_t> out;
    for (double v : values(r, name)) out.push_back(static_cast<uint32_t>(static_cast<int64_t>(v)) & width);
    return out;
  };
  std::vector<double> xs = values(r, "X"), ys = values(r, "Y"), zs = values(r, "Z");
  std::vector<uint32_t> half = bitsAt("Half", 0xffff), bf16 = bitsAt("Bf16", 0xffff), pairs = bitsAt("Pairs", ~0u),
                        special = bitsAt("Special", 0xffff);
  for (size_t i = 0; i < xs.size(); ++i) {
    const ElemType H = ElemType::F16, B = ElemType::BF16;
    double x = value(round(xs[i], H), H), y = value(round(ys[i], H), H), z = value(round(zs[i], H), H);
    double f = std::fma(x, y, z);
    std::vector<uint32_t> want = {round(x + y, H), round(x - y, H), round(x * y, H), round(f, H),
                                  round(std::min(x, y), H), round(std::max(x, y), H), round(clamp01(x + y), H),
                                  round(std::max(f, 0.0), H), uint32_t((x == y) + 2 * (x < y) + 4 * !(x < y)),
                                  round(x * y, H), round(clamp01(x - z), H), round(clamp01(f), H),
                                  uint32_t(int16_t(std::nearbyint(value(round(x * 100, H), H)))) & 0xffff,
                                  round(static_cast<int>(static_cast<float>(xs[i]) * 1000.0f), H)};
    for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(half[14 * i + k], want[k]) << "half " << i << " op " << k;
    double bx = value(round(xs[i], B), B), by = value(round(ys[i], B), B), bz = value(round(zs[i], B), B);
    std::vector<uint32_t> wantB = {round(bx + by, B), round(bx - by, B), round(bx * by, B),
                                   round(std::fma(bx, by, bz), B), round(std::max(bx, by), B), uint32_t(bx > by)};
    for (size_t k = 0; k < wantB.size(); ++k) EXPECT_EQ(bf16[6 * i + k], wantB[k]) << "bf16 " << i << " op " << k;
    auto pair = [](uint32_t lo, uint32_t hi) { return lo | (hi << 16); };
    auto mask = [](bool t) { return t ? 0xffffu : 0u; };
    EXPECT_EQ(pairs[4 * i], pair(round(x + z, H), round(y + x, H))) << i;  // p = (x, y), q = (z, x)
    EXPECT_EQ(pairs[4 * i + 1], pair(round(std::fma(x, z, x), H), round(std::fma(y, x, y), H))) << i;
    EXPECT_EQ(pairs[4 * i + 2], pair(mask(x == z) ^ mask(x < z), mask(y == x) ^ mask(y < x))) << i;
    EXPECT_EQ(pairs[4 * i + 3], pair(x <= z ? 0x3c00 : 0, y <= x ? 0x3c00 : 0)) << i;
  }
  // min(NaN, 1) = 1; min.NaN and arithmetic give the canonical NaN; -0 < +0; heq/hequ/hisnan of NaN;
  // .sat takes NaN to +0; 60000 * 2 overflows to +inf.
  EXPECT_EQ(special, (std::vector<uint32_t>{0x3c00, 0x7fff, 0x7fff, 0x8000, 0x0000, 6, 0x0000, 0x7c00}));
}

TEST(PtxCatalogue, Lop3AndTheFp8PairConversions) {
  auto lop = parsePtx("lop3.b32 $0, $1, $2, $3, 0xea;");
  ASSERT_TRUE(lop);
  EXPECT_EQ(lop->op, PtxOp::Lop3);
  EXPECT_EQ(lop->immediate, 0xeau);
  auto lopN = parsePtx("lop3.b32 $0, $1, $2, $3, $4;");
  ASSERT_TRUE(lopN);
  EXPECT_EQ(lopN->lutOperand, 4);
  EXPECT_FALSE(parsePtx("lop3.b32 $0, $1, $2, $3, 0x1ff;")) << "a truth table has 8 bits";
  auto toE5 = parsePtx("cvt.rn.satfinite.relu.e5m2x2.f32 $0, $1, $2;");
  ASSERT_TRUE(toE5);
  EXPECT_TRUE(toE5->aUnsigned && toE5->relu);
  EXPECT_FALSE(parsePtx("cvt.rn.e4m3x2.f32 $0, $1, $2;")) << ".satfinite is required by PTX";
  ASSERT_TRUE(parsePtx("cvt.rn.f16x2.e4m3x2 $0, $1;"));

  CheckResult r = check(bundle("ptx_bits"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto a = values(r, "a"), b = values(r, "b"), c = values(r, "c"), lops = values(r, "lop");
  for (int i = 0; i < 8; ++i) {
    uint32_t x = static_cast<uint32_t>(a[i]), y = static_cast<uint32_t>(b[i]), z = static_cast<uint32_t>(c[i]);
    EXPECT_EQ(static_cast<uint32_t>(lops[3 * i]), (x & y) | z) << i;
    EXPECT_EQ(static_cast<uint32_t>(lops[3 * i + 1]), x ^ y ^ z) << i;
    uint32_t nibbles = (x >> (4 * (i & 3))) & 0x000f000fu;  // 1024 + nibble in each half
    EXPECT_EQ(static_cast<uint32_t>(lops[3 * i + 2]), nibbles | 0x64006400u) << i;
  }
  // values = 1, 0.3, 500, -1000, NaN, -0.3, 1e-9, 448; thread i converts (values[i], values[7 - i]) into the
  // high and low byte. By hand: e4m3 1 = 0x38, 0.3 -> 0.3125 = 0x2a, 500 and 448 saturate to 448 = 0x7e,
  // -1000 to -448 = 0xfe, NaN = 0x7f, 1e-9 -> +0; e5m2 1 = 0x3c, 0.3 -> 0.3125 = 0x35, 500 -> 512 = 0x60,
  // -1000 -> -1024 = 0xe4, 448 = 0x5f; .relu makes the negatives +0.
  const uint8_t e4[8] = {0x38, 0x2a, 0x7e, 0xfe, 0x7f, 0xaa, 0x00, 0x7e};
  const uint8_t e4relu[8] = {0x38, 0x2a, 0x7e, 0x00, 0x7f, 0x00, 0x00, 0x7e};
  const uint8_t e5[8] = {0x3c, 0x35, 0x60, 0xe4, 0x7f, 0xb5, 0x00, 0x5f};
  const uint16_t asHalf[8] = {0x3c00, 0x3500, 0x5f00, 0xdf00, 0x7e00, 0xb500, 0x0000, 0x5f00};  // e4 back
  auto fp8 = values(r, "fp8"), halves = values(r, "halves");
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(static_cast<uint32_t>(fp8[3 * i]), (e4[i] << 8) | e4[7 - i]) << i;
    EXPECT_EQ(static_cast<uint32_t>(fp8[3 * i + 1]), (e4relu[i] << 8) | e4relu[7 - i]) << i;
    EXPECT_EQ(static_cast<uint32_t>(fp8[3 * i + 2]), (e5[i] << 8) | e5[7 - i]) << i;
    uint32_t h = static_cast<uint32_t>(halves[i]);
    for (int part : {0, 1}) {
      int element = part ? i : 7 - i;  // the high half is the high byte's
      uint16_t got = static_cast<uint16_t>(h >> (16 * part));
      EXPECT_EQ(got, element == 4 ? 0x7fff : asHalf[element]) << "thread " << i << (part ? " high" : " low")
                                                               << " (NaN: the canonical 0x7fff, as the H200 gives)";
    }
  }
}

TEST(PtxCatalogue, ScopedAtomicsLoadsAndFencesAsLibcuxxWritesThem) {
  auto add = parsePtx("atom.add.relaxed.gpu.f32 $0,[$1],$2;");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->op, PtxOp::ScopedAtomic);
  EXPECT_EQ(add->valueType, "f32");
  ASSERT_TRUE(parsePtx("atom.relaxed.gpu.global.add.s32 $0, [$1], $2;")) << "qualifiers before the operation";
  auto pair = parsePtx("{ atom.add.noftz.f16x2 $0,[$1],$2; }\n");
  ASSERT_TRUE(pair);
  EXPECT_EQ(ptxTypeBytes(pair->valueType), 4u);
  EXPECT_FALSE(parsePtx("atom.add.f16x2 $0,[$1],$2;")) << "PTX requires .noftz on the 16-bit float adds";
  auto ld = parsePtx("ld.acquire.gpu.u64 $0, [$1];");
  ASSERT_TRUE(ld);
  EXPECT_TRUE(ld->acquire);
  EXPECT_EQ(ptxTypeBytes(ld->valueType), 8u);
  EXPECT_EQ(parsePtx("fence.sc.gpu;")->op, PtxOp::Fence);
  EXPECT_EQ(parsePtx("fence.acq_rel.sys;")->op, PtxOp::Fence);

  // 64 threads in two blocks: each adds 1, 0.5, the half pair (1, 0.25) and the bfloat16 0.25.
  CheckResult r = check(bundle("scoped_atomics"));
  EXPECT_TRUE(r.report.findings.empty()) << "atomics and atomic loads do not race: " << r.report.findings[0].title;
  EXPECT_EQ(values(r, "count"), std::vector<double>{64});
  EXPECT_EQ(values(r, "sum"), std::vector<double>{32});
  EXPECT_EQ(static_cast<uint32_t>(values(r, "halves")[0]), 0x4c005400u) << "16.0 (high) and 64.0 (low) as halves";
  EXPECT_EQ(values(r, "bf"), std::vector<double>{16});
  EXPECT_EQ(values(r, "seen"), (std::vector<double>{1, 1})) << "ld.relaxed saw the block's own adds";
  CheckResult bug = check(std::string(TD_TESTS_DIR) + "/bundles/scoped_atomics/bundle_bug.toml");
  const Finding* waw = find(bug, "global-race-waw");
  ASSERT_TRUE(waw) << "a plain store among atomic adds is a race";
  EXPECT_EQ(waw->buffer, "count");
}

TEST(PtxCatalogue, ScopedReadModifyWritesAndStoresAsLibcuxxWritesThem) {
  auto cas = parsePtx("atom.cas.relaxed.gpu.b32 $0,[$1],$2,$3;");
  ASSERT_TRUE(cas);
  EXPECT_EQ(cas->op, PtxOp::ScopedAtomic);
  EXPECT_EQ(cas->atomic, ScopedAtomicOp::Cas);
  EXPECT_EQ(parsePtx("atom.max.acquire.sys.s64 $0,[$1],$2;")->atomic, ScopedAtomicOp::Max);
  EXPECT_EQ(parsePtx("atom.exch.gpu.b64 $0,[$1],$2;")->atomic, ScopedAtomicOp::Exch);
  EXPECT_FALSE(parsePtx("atom.cas.relaxed.gpu.b32 $0,[$1],$2;")) << "cas takes a compare and a new value";
  EXPECT_FALSE(parsePtx("atom.xor.relaxed.gpu.b32 $0,[$1],$2,$3;")) << "xor takes one value";
  EXPECT_FALSE(parsePtx("atom.min.relaxed.gpu.f32 $0,[$1],$2;")) << "PTX's atom.min is on integers";
  auto store = parsePtx("st.release.gpu.b64 [$0],$1;");
  ASSERT_TRUE(store);
  EXPECT_EQ(store->op, PtxOp::ScopedStore);
  EXPECT_TRUE(store->acquire);
  EXPECT_EQ(ptxTypeBytes(store->valueType), 8u);
  EXPECT_EQ(parsePtx("st.volatile.b32 [$0],$1;")->op, PtxOp::ScopedStore);
  EXPECT_EQ(parsePtx("ld.volatile.u16 $0,[$1];")->op, PtxOp::ScopedLoad);

  // 64 threads of two blocks (t = 0..63) update one set of counters; each result worked out by hand.
  CheckResult r = check(bundle("scoped_rmw"));
  EXPECT_TRUE(r.report.findings.empty()) << "atomics do not race with atomics: " << r.report.findings[0].title;
  EXPECT_EQ(values(r, "maxInt"), std::vector<double>{12}) << "max of (7t mod 23) - 10";
  EXPECT_EQ(values(r, "minUnsigned"), std::vector<double>{100}) << "min of 100 + 13t mod 41 (t = 0)";
  EXPECT_EQ(values(r, "orBits"), std::vector<double>{4294967295.0}) << "every bit 1 << (t mod 32) set";
  EXPECT_EQ(values(r, "andBits"), std::vector<double>{4294901760.0}) << "bits 0-15 cleared from all ones";
  EXPECT_EQ(values(r, "wide"), std::vector<double>{18446744073709551615.0}) << "xor of 1 << t over 64 threads";
  EXPECT_EQ(values(r, "maxFloat"), std::vector<double>{15.75}) << "the CAS loop's max of 0.25 * (29t mod 64)";
  EXPECT_EQ(values(r, "counter"), std::vector<double>{2016}) << "the 64-bit CAS counter: 0 + 1 + ... + 63";
  EXPECT_EQ(values(r, "flags"), (std::vector<double>{1, 1, 7, 7}));
  // Each exchange hands back the value it replaced (slot t held t) and leaves its own (t + 100).
  std::vector<double> olds = values(r, "olds"), swapped = values(r, "swapped");
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(olds[t], t);
    EXPECT_EQ(swapped[t], t + 100);
  }

  CheckResult bug = check(std::string(TD_TESTS_DIR) + "/bundles/scoped_rmw/bundle_bug.toml");
  const Finding* waw = find(bug, "global-race-waw");
  ASSERT_TRUE(waw) << "a plain store among compare-and-swaps is a race";
  EXPECT_EQ(waw->buffer, "maxFloat");
  for (const Finding& f : bug.report.findings) EXPECT_EQ(f.buffer, "maxFloat") << f.title;
}

namespace {
double toBf16(double v) {  // one rounding to bfloat16, to nearest even (the inputs' products and sums are exact in double)
  float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000u;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace

TEST(PtxCatalogue, Bfloat16AsTheSdkWritesItBelowSm90) {
  auto sub = parsePtx("{.reg .b16 c;\n  mov.b16 c, 0xbf80U;\n  fma.rn.bf16 $0,$2,c,$1;}\n");
  ASSERT_TRUE(sub);
  EXPECT_EQ(sub->half.arith, HalfArith::Sub);
  EXPECT_EQ(sub->half.src[0], 1);  // $2 * -1 + $1 = $1 - $2
  EXPECT_EQ(sub->half.src[1], 2);
  auto mul2 = parsePtx("{.reg .b32 c;\n  mov.b32 c, 0x80008000U;\n  fma.rn.bf16x2 $0,$1,$2,c;}\n");
  ASSERT_TRUE(mul2);
  EXPECT_EQ(mul2->half.arith, HalfArith::Mul);
  EXPECT_EQ(mul2->half.lanes, 2);
  EXPECT_FALSE(parsePtx("{.reg .b16 c;\n  mov.b16 c, 0x4000U;\n  fma.rn.bf16 $0,$1,c,$2;}")) << "x * 2 + y is no add";
  EXPECT_FALSE(parsePtx("{.reg .b16 c;\n  mov.b16 c, 0x0000U;\n  fma.rn.bf16 $0,$1,$2,c;}")) << "+0 turns -0 products to +0";
  auto eq = parsePtx("{.reg .b32 a,b;\n  mov.b32 a, {0, $1};\n  mov.b32 b, {0, $2};\n  set.eq.f32.f32 $0, a, b;}\n");
  ASSERT_TRUE(eq);
  EXPECT_EQ(eq->half.result, CompareResult::Float);

  CheckResult r = check(bundle("bf16_sm80"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto a = values(r, "a"), b = values(r, "b"), sum = values(r, "sum"), diff = values(r, "diff"), prod = values(r, "prod");
  auto pairs = values(r, "pairs"), cmp = values(r, "compare");
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(sum[i], toBf16(a[i] + b[i])) << i;
    ASSERT_EQ(diff[i], toBf16(a[i] - b[i])) << i;
    ASSERT_EQ(prod[i], toBf16(a[i] * b[i])) << i;
    // x = (a, b), y = (b, a) as (low, high)
    ASSERT_EQ(pairs[6 * i], toBf16(a[i] + b[i])) << i;
    ASSERT_EQ(pairs[6 * i + 1], toBf16(b[i] + a[i])) << i;
    ASSERT_EQ(pairs[6 * i + 2], toBf16(a[i] - b[i])) << i;
    ASSERT_EQ(pairs[6 * i + 3], toBf16(b[i] - a[i])) << i;
    ASSERT_EQ(pairs[6 * i + 4], toBf16(a[i] * b[i])) << i;
    ASSERT_EQ(cmp[3 * i], 1) << i;
    ASSERT_EQ(cmp[3 * i + 1], a[i] < b[i] ? 1 : 0) << i;
    ASSERT_EQ(cmp[3 * i + 2], a[i] >= b[i] ? 1 : 0) << i;
  }
}

TEST(PtxCatalogue, OneFloatIntoBothHalvesOfAPairAsTheSdkWritesIt) {
  auto h2 = parsePtx("{.reg .f16 low;\n  cvt.rn.f16.f32 low, $1;\n  mov.b32 $0, {low,low};}\n");
  ASSERT_TRUE(h2);
  EXPECT_EQ(h2->mode, static_cast<int>(HalfScalarKind::NarrowF16));
  EXPECT_EQ(h2->count, 2);
  auto b2 = parsePtx("{.reg .b16 low;\n  cvt.rn.bf16.f32 low, $1;\n  mov.b32 $0, {low,low};}\n");
  ASSERT_TRUE(b2);
  EXPECT_EQ(b2->mode, static_cast<int>(HalfScalarKind::NarrowBF16));
  EXPECT_FALSE(parsePtx("{.reg .f16 low;\n  cvt.rn.f16.f32 low, $1;\n  mov.b32 $0, {low,high};}\n"));

  CheckResult r = check(bundle("sdk_pairs"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto x = values(r, "x"), h = values(r, "h"), b = values(r, "b");
  ASSERT_EQ(h.size(), 2 * x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    double half = static_cast<double>(static_cast<_Float16>(static_cast<float>(x[i])));
    EXPECT_EQ(h[2 * i], half * 0.5) << i;
    EXPECT_EQ(h[2 * i + 1], half * 0.5) << i;
    EXPECT_EQ(b[2 * i], toBf16(x[i])) << i;
    EXPECT_EQ(b[2 * i + 1], toBf16(x[i])) << i;
  }
}

TEST(PtxCatalogue, FourBitTensorCoreProducts) {
  auto k64 = parsePtx("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};");
  ASSERT_TRUE(k64);
  EXPECT_TRUE(k64->integer);
  EXPECT_EQ(k64->elementBits, 4);
  EXPECT_EQ(k64->k, 64);
  auto k32 = parsePtx("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32 {$0,$1,$2,$3}, {$4,$5}, {$6}, {$7,$8,$9,$10};");
  ASSERT_TRUE(k32);
  EXPECT_TRUE(k32->aUnsigned);
  EXPECT_FALSE(k32->bUnsigned);
  EXPECT_FALSE(parsePtx("mma.sync.aligned.m16n8k16.row.col.s32.s4.s4.s32 {$0,$1,$2,$3}, {$4}, {$5}, {$6,$7,$8,$9};"))
      << "no k16 for 4-bit inputs";
  EXPECT_FALSE(parsePtx("mma.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};"))
      << "no k64 for 8-bit inputs";
  EXPECT_FALSE(parsePtx("mma.sync.aligned.m16n8k32.row.col.s32.s4.s8.s32 {$0,$1,$2,$3}, {$4,$5}, {$6}, {$7,$8,$9,$10};"))
      << "one width for both inputs";

  CheckResult r = check(bundle("mma_int4"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto A = values(r, "A"), B = values(r, "B"), C = values(r, "C"), d64 = values(r, "D64"), d32 = values(r, "D32");
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 8; ++col) {
      double full = C[row * 8 + col], low = C[row * 8 + col];
      for (int k = 0; k < 64; ++k) full += A[row * 64 + k] * B[k * 8 + col];
      for (int k = 0; k < 32; ++k) low += static_cast<double>(static_cast<int>(A[row * 64 + k]) & 15) * B[k * 8 + col];
      EXPECT_EQ(d64[row * 8 + col], full) << row << "," << col;
      EXPECT_EQ(d32[row * 8 + col], low) << row << "," << col;
    }
}

TEST(PtxCatalogue, FourByteDotProducts) {
  auto s = parsePtx("dp4a.s32.s32 $0, $1, $2, $3;");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->op, PtxOp::Dp4a);
  EXPECT_FALSE(s->aUnsigned);
  auto mixed = parsePtx("dp4a.u32.s32 $0, $1, $2, $3;");
  ASSERT_TRUE(mixed);
  EXPECT_TRUE(mixed->aUnsigned);
  EXPECT_FALSE(mixed->bUnsigned);

  CheckResult r = check(bundle("dp4a"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  auto a = values(r, "a"), b = values(r, "b"), c = values(r, "c"), sd = values(r, "s"), ud = values(r, "u");
  for (size_t i = 0; i < a.size(); ++i) {
    uint32_t x = static_cast<uint32_t>(static_cast<int32_t>(a[i])), y = static_cast<uint32_t>(static_cast<int32_t>(b[i]));
    int64_t signedSum = static_cast<int32_t>(c[i]);
    uint64_t unsignedSum = static_cast<uint32_t>(static_cast<int32_t>(c[i]));
    for (int k = 0; k < 4; ++k) {
      signedSum += int64_t(static_cast<int8_t>(x >> (8 * k))) * int64_t(static_cast<int8_t>(y >> (8 * k)));
      unsignedSum += uint64_t((x >> (8 * k)) & 0xff) * uint64_t((y >> (8 * k)) & 0xff);
    }
    EXPECT_EQ(static_cast<int32_t>(sd[i]), static_cast<int32_t>(signedSum)) << i;
    EXPECT_EQ(static_cast<uint32_t>(ud[i]), static_cast<uint32_t>(unsignedSum)) << i;
  }
}

TEST(PtxCatalogue, TheSdksMxScaleConversionsBelowSm100) {
  EXPECT_EQ(parsePtx("{  cvt.rn.f32.f64 $0, $1;}\n")->op, PtxOp::CvtFloatWidth);
  EXPECT_EQ(parsePtx("{  cvt.f64.f32 $0, $1;}\n")->op, PtxOp::CvtFloatWidth);
  EXPECT_FALSE(parsePtx("cvt.rz.f32.f64 $0, $1;")) << "only round-to-nearest is emulated";

  // __nv_fp8_e8m0 rounds |x| up to a power of two, 2^(code - 127); from double through a float with a sticky
  // bit, so 1 + 1e-10 still rounds up and 1 - 1e-10 (1.0f when narrowed) does not.
  CheckResult r = check(bundle("e8m0"));
  ASSERT_TRUE(r.report.findings.empty()) << r.report.findings[0].title;
  // floats 1, 1.5, 1.25, 3, 0.75, -2, 1e38, 0.5
  EXPECT_EQ(values(r, "fromFloat"), (std::vector<double>{127, 128, 128, 129, 127, 128, 254, 126}));
  EXPECT_EQ(values(r, "back"), (std::vector<double>{1, 2, 2, 4, 1, 2, std::ldexp(1.0, 127), 0.5}));
  // doubles 1, 1 + 1e-10, 2, 1 - 1e-10, 0.25, 3, 1e-3 (between 2^-10 and 2^-9), 65536
  EXPECT_EQ(values(r, "fromDouble"), (std::vector<double>{127, 128, 128, 127, 125, 129, 118, 143}));
}
