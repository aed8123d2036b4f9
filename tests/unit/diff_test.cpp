// tile-doctor diff: a kernel's outputs against saved outputs, another target and planted differences;
// the rules' verdicts and the tiles the errors fall in, checked against figures computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <filesystem>
#include <limits>

#ifdef TD_HAVE_CAIRO
#include <cairo.h>
#endif

#include "diff/acceptance_rules.h"
#include "diff/diff_run.h"
#include "driver/outputs.h"
#include "frontend/input_error.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

std::string diffBundle(const std::string& manifest) { return bundleFile("diff", manifest); }

DiffRequest diffRequest(const std::string& manifest, const std::string& against) {
  DiffRequest d;
  d.check.bundlePath = diffBundle(manifest);
  d.check.checks = "launch";
  d.check.launch.jobs = 2;
  d.against = against;
  return d;
}

std::string scratch(const std::string& name) {
  std::string dir = (std::filesystem::temp_directory_path() / ("td-diff-" + name + "-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

// The floor-divided grid leaves the bottom and right partial tiles unwritten: every element there is wrong,
// the others identical; the tile map shows exactly the edge.
TEST(Diff, EdgeTilesLeftUnwrittenFailAndShowOnTheTileMap) {
  std::string ref = scratch("edge");
  CheckRequest correct = diffRequest("bundle", "").check;
  CheckResult good = runCheck(correct);
  saveOutputs(good, ref);
  DiffReport r = runDiff(diffRequest("bundle_floor_grid", ref));
  ASSERT_EQ(r.outputs.size(), 1u);
  const OutputDiff& o = r.outputs[0];
  EXPECT_FALSE(o.pass);
  EXPECT_EQ(r.exitCode(), 1);
  // Independently: the reference's elements outside the 64 x 64 covered corner, their largest magnitude.
  std::vector<double> C = values(good, "C");
  uint64_t edge = 0;
  double largest = 0, sumSquares = 0;
  for (int row = 0; row < 72; ++row)
    for (int col = 0; col < 72; ++col)
      if (row >= 64 || col >= 64) {
        double c = C[row * 72 + col];
        edge += c != 0;
        largest = std::max(largest, std::fabs(c));
        sumSquares += c * c;
      }
  EXPECT_EQ(o.verdicts[0].rule, "torch");
  EXPECT_EQ(o.verdicts[0].mismatched, edge);
  EXPECT_EQ(o.comparison.maxAbs.abs, largest);
  EXPECT_NEAR(o.comparison.rmse, std::sqrt(sumSquares / (72 * 72)), 1e-12);
  EXPECT_EQ(o.comparison.ulpHistogram[0], 64u * 64u + (72 * 72 - 64 * 64 - edge)) << "identical elements";
  ASSERT_EQ(o.tiles.tileRows, 16);
  ASSERT_EQ(o.tiles.tileCols, 16);
  ASSERT_EQ(o.tiles.tilesDown, 5);
  ASSERT_EQ(o.tiles.tilesAcross, 5);
  for (int t = 0; t < 25; ++t) {
    bool onEdge = t / 5 == 4 || t % 5 == 4;
    EXPECT_EQ(o.tiles.worst[t] > 1, onEdge) << "tile " << t << ": " << o.tiles.worst[t];
    if (!onEdge) EXPECT_EQ(o.tiles.worst[t], 0.0) << "tile " << t;
  }
  std::filesystem::remove_all(ref);
}

// The same bundle for a wave-64 target: a tiled GEMM without warp-level code gives the same outputs; the
// warp probe's sums over warpSize lanes do not.
TEST(Diff, AnotherTargetAgreesUnlessTheKernelDependsOnTheWaveSize) {
  DiffReport same = runDiff(diffRequest("bundle", "metax-c500"));
  ASSERT_EQ(same.outputs.size(), 1u);
  EXPECT_TRUE(same.outputs[0].pass);
  EXPECT_EQ(same.outputs[0].comparison.maxAbs.abs, 0.0);
  EXPECT_EQ(same.reference.target, "metax-c500");
  DiffRequest probe;
  probe.check.bundlePath = bundle("warp_probe");
  probe.check.checks = "launch";
  probe.against = "metax-c500";
  DiffReport wave = runDiff(probe);
  bool sizeFails = false, sumFails = false;
  for (const OutputDiff& o : wave.outputs) {
    if (o.comparison.name == "size") sizeFails = !o.pass;
    if (o.comparison.name == "warp_sum") sumFails = !o.pass;
  }
  EXPECT_TRUE(sizeFails && sumFails) << "warpSize and the sums over it differ between 32 and 64 lanes";
  // the other way round, the wave-64 run names the lines that assume 32 lanes
  probe.check.target = "metax-c500";
  probe.check.checks = "all";
  probe.against = "nvidia-h200";
  DiffReport named = runDiff(probe);
  EXPECT_EQ(named.exitCode(), 1);
  bool assumption = false;
  for (const Finding& f : named.tested.findings) assumption |= f.kind == "warp-size-assumption" && f.loc.line == 8u;
  EXPECT_TRUE(assumption) << "the shuffle reduction written for 32 lanes, at probe.cu:8";
  EXPECT_EQ(wave.exitCode(), 1);
}

// A .npy reference with planted differences: each rule counts exactly the elements a direct evaluation of
// its test counts here.
TEST(Diff, RulesCountWhatTheirTestsSay) {
  std::vector<int64_t> shape{4, 250};
  std::vector<double> ref(1000), res(1000);
  for (int i = 0; i < 1000; ++i) ref[i] = res[i] = 1.0 + i / 1000.0;
  res[3] += 2e-3;   // past torch's float32 tolerance, within TileLang's (1e-3 + 1e-2 * 1.003)
  res[10] += 0.05;  // past both
  res[11] += 0.05;
  res[500] = std::numeric_limits<double>::quiet_NaN();
  ref[500] = std::numeric_limits<double>::quiet_NaN();  // NaN on both sides: torch (equal_nan=False) counts it
  OutputComparison c = compareOutput("out", ElemType::F32, shape, res, ref, 4);
  RuleVerdict torch = torchRule(c, {}), tl = tilelangRule(c, {});
  auto outside = [&](double rtol, double atol, bool equalNan) {
    uint64_t n = 0;
    for (int i = 0; i < 1000; ++i) {
      if (std::isnan(res[i]) || std::isnan(ref[i])) { n += !(equalNan && std::isnan(res[i]) && std::isnan(ref[i])); continue; }
      n += std::fabs(res[i] - ref[i]) > atol + rtol * std::fabs(ref[i]);
    }
    return n;
  };
  EXPECT_EQ(torch.mismatched, outside(1.3e-6, 1e-5, false));
  EXPECT_EQ(torch.mismatched, 4u);
  EXPECT_FALSE(torch.pass);
  EXPECT_EQ(tl.mismatched, outside(1e-2, 1e-3, true));
  EXPECT_EQ(tl.mismatched, 2u);
  EXPECT_EQ(tl.allowedMismatched, 1u) << "floor(0.001 * 1000)";
  EXPECT_FALSE(tl.pass);
  ASSERT_TRUE(tl.firstMismatch.has_value());
  EXPECT_EQ(tl.firstMismatch->coords, (std::vector<int64_t>{0, 10}));
  EXPECT_EQ(c.nanBoth, 1u);
  EXPECT_EQ(c.worst.front().index, 10u);
  RuleOverrides loose;
  loose.rtol = 0.1;
  EXPECT_TRUE(torchRule(c, loose).mismatched == 1u) << "the NaN pair alone";
  // float16's own tolerance, and dynamo without an fp64 reference says it cannot decide
  OutputComparison h = compareOutput("h", ElemType::F16, {1}, {1.0009765625}, {1.0}, 1);
  EXPECT_TRUE(torchRule(h, {}).pass) << "1 ulp of half at 1.0 is within rtol 1e-3";
  EXPECT_EQ(h.ulpHistogram[1], 1u);
  // dynamo without fp64: the cosine fallback, computed here too
  RuleVerdict d = dynamoRule(c, nullptr, nullptr, {});
  double dot = 0, a2 = 0, b2 = 0;
  for (int i = 0; i < 1000; ++i)
    if (i != 500) dot += res[i] * ref[i], a2 += res[i] * res[i], b2 += ref[i] * ref[i];
  EXPECT_TRUE(d.evaluated && d.pass) << d.detail;
  EXPECT_NE(d.detail.find(fmt::format("{:.6f}", dot / std::sqrt(a2 * b2))), std::string::npos) << d.detail;
  std::vector<double> opposite(ref);
  for (double& x : opposite) x = -x;
  EXPECT_FALSE(dynamoRule(compareOutput("out", ElemType::F32, shape, opposite, ref, 1), nullptr, nullptr, {}).pass);
}

TEST(Diff, BadReferencesAreNamed) {
  EXPECT_THROW(runDiff(diffRequest("bundle", "/no/such/reference")), InputError);
  std::string empty = scratch("empty");
  try {
    runDiff(diffRequest("bundle", empty));
    FAIL() << "a folder without C.npy";
  } catch (const InputError& e) {
    EXPECT_NE(e.file.find("C.npy"), std::string::npos) << e.file;
  }
  DiffRequest rule = diffRequest("bundle", "metax-c500");
  rule.rule = "numpy";
  EXPECT_THROW(runDiff(rule), InputError);
  std::filesystem::remove_all(empty);
}

// --against fp64: the numerics family's shadows are the reference. The half-accumulating GEMV fails
// PyTorch's float16 rule, its accumulator named by the run's drift finding, and its errors are those of
// the kernel's outputs against the GEMV computed here in double; the float-accumulating twin passes.
TEST(Diff, AgainstFp64TheHalfAccumulatorFailsAndIsNamed) {
  DiffRequest half;
  half.check.bundlePath = bundleFile("numerics", "gemv_half_accum");
  half.check.launch.jobs = 2;
  half.against = "fp64";
  DiffReport r = runDiff(half);
  ASSERT_EQ(r.outputs.size(), 1u);
  const OutputDiff& o = r.outputs[0];
  EXPECT_FALSE(o.pass);
  EXPECT_EQ(o.unshadowed, 0u);
  bool named = false;
  for (const Finding& f : r.tested.findings) named |= f.kind == "precision-drift" && f.loc.line == 9u;
  EXPECT_TRUE(named) << "the __hfma accumulator at gemv.cu:9";
  // The same run's inputs, the exact GEMV in double here.
  CheckRequest again = half.check;
  again.checks = "launch";
  CheckResult plain = runCheck(again);
  std::vector<double> A = values(plain, "A"), x = values(plain, "x"), y = values(plain, "y");
  double maxAbs = 0, sumSquares = 0;
  for (int row = 0; row < 256; ++row) {
    double exact = 0;
    for (int k = 0; k < 1024; ++k) exact += A[row * 1024 + k] * x[k];
    double err = std::fabs(y[row] - exact);
    maxAbs = std::max(maxAbs, err);
    sumSquares += err * err;
  }
  EXPECT_NEAR(o.comparison.maxAbs.abs, maxAbs, 1e-9 * maxAbs);
  EXPECT_NEAR(o.comparison.rmse, std::sqrt(sumSquares / 256), 1e-9 * maxAbs);
  EXPECT_NE(o.verdicts[2].detail.find("cosine"), std::string::npos) << "dynamo against fp64 alone: the fallback";

  DiffRequest twin = half;
  twin.check.bundlePath = bundleFile("numerics", "gemv_float_accum");
  DiffReport clean = runDiff(twin);
  EXPECT_TRUE(clean.outputs.at(0).pass) << clean.outputs[0].verdicts[0].detail;
  EXPECT_EQ(clean.exitCode(), 0);
}

// dynamo's rule with saved outputs: the float-accumulating GEMV is nearer fp64 than the half one's saved
// outputs, so it passes dynamo's rule where PyTorch's float16 tolerance, against those outputs, fails it.
TEST(Diff, DynamoWeighsBothSidesAgainstFp64) {
  std::string ref = scratch("dynamo");
  CheckRequest half;
  half.bundlePath = bundleFile("numerics", "gemv_half_accum");
  half.checks = "launch";
  saveOutputs(runCheck(half), ref);
  DiffRequest d;
  d.check.bundlePath = bundleFile("numerics", "gemv_float_accum");
  d.against = ref;
  d.rule = "dynamo";
  DiffReport r = runDiff(d);
  const OutputDiff& o = r.outputs.at(0);
  ASSERT_TRUE(o.hasFp64);
  EXPECT_LT(o.resultRmseVsFp64, o.referenceRmseVsFp64);
  EXPECT_TRUE(o.verdicts[2].evaluated && o.verdicts[2].pass) << o.verdicts[2].detail;
  EXPECT_FALSE(o.verdicts[0].pass);
  EXPECT_TRUE(o.pass);
  std::filesystem::remove_all(ref);
}

#ifdef TD_HAVE_CAIRO  // the static GPU build has no cairo
// --images: the heat map of the unwritten edge. The numbers behind the picture (one cell per element here)
// are hot exactly where the reference is nonzero outside the covered 64 x 64 corner, and the PNG's pixels
// have the colours the scale gives those numbers.
TEST(Diff, HeatMapShowsTheUnwrittenEdge) {
  std::string ref = scratch("heat-ref"), images = scratch("heat-images");
  CheckResult good = runCheck(diffRequest("bundle", "").check);
  saveOutputs(good, ref);
  DiffRequest d = diffRequest("bundle_floor_grid", ref);
  d.images = images;
  DiffReport r = runDiff(d);
  const OutputDiff& o = r.outputs.at(0);
  ASSERT_EQ(o.heat.down, 72);
  ASSERT_EQ(o.heat.across, 72);
  std::vector<double> C = values(good, "C");
  for (int row = 0; row < 72; ++row)
    for (int col = 0; col < 72; ++col) {
      bool missed = (row >= 64 || col >= 64) && C[row * 72 + col] != 0;
      ASSERT_EQ(o.heat.ratio[row * 72 + col] > 1, missed) << row << ", " << col;
    }
  ASSERT_EQ(o.image, images + "/C.png");
  cairo_surface_t* png = cairo_image_surface_create_from_png(o.image.c_str());
  ASSERT_EQ(cairo_surface_status(png), CAIRO_STATUS_SUCCESS);
  const unsigned char* data = cairo_image_surface_get_data(png);
  int stride = cairo_image_surface_get_stride(png);
  auto pixel = [&](int row, int col) {  // the centre of an element's 7-pixel cell, 48 pixels in
    uint32_t p = *reinterpret_cast<const uint32_t*>(data + (48 + row * 7 + 3) * stride + (48 + col * 7 + 3) * 4);
    return std::array<int, 3>{int(p >> 16 & 255), int(p >> 8 & 255), int(p & 255)};
  };
  auto expected = [&](int row, int col) {
    Rgb c = heatColour(o.heat.ratio[row * 72 + col]);
    return std::array<int, 3>{int(c.r * 255 + 0.5), int(c.g * 255 + 0.5), int(c.b * 255 + 0.5)};
  };
  for (auto [row, col] : {std::pair{10, 10}, {70, 5}, {5, 70}, {71, 71}, {63, 63}})
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(pixel(row, col)[k], expected(row, col)[k], 1) << row << ", " << col;
  EXPECT_NE(pixel(10, 10), pixel(70, 5)) << "the edge looks different from the inside";
  cairo_surface_destroy(png);
  std::filesystem::remove_all(ref);
  std::filesystem::remove_all(images);
}
#endif

// One warp of every block rounds through half: the tiles are all alike (every block has that warp), the
// per-warp errors — who last wrote each element, from the race family's shadow — single it out.
TEST(Diff, OneBadWarpOfEveryBlockStandsOutPerWarp) {
  DiffRequest d;
  d.check.bundlePath = diffBundle("bundle_warp_scale");
  d.check.launch.jobs = 2;
  d.against = "fp64";
  DiffReport r = runDiff(d);
  const OutputDiff& o = r.outputs.at(0);
  EXPECT_FALSE(o.pass);
  ASSERT_EQ(o.warps.elements.size(), 4u);
  EXPECT_EQ(o.warps.unattributed, 0u);
  for (size_t w = 0; w < 4; ++w) {
    EXPECT_EQ(o.warps.elements[w], 8u * 32u) << "warp " << w;
    EXPECT_EQ(o.warps.worst[w] > 1, w == 2) << "warp " << w << ": " << o.warps.worst[w];
  }
  uint64_t failing = 0;
  for (size_t t = 0; t < o.tiles.worst.size(); ++t) failing += o.tiles.worst[t] > 1;
  EXPECT_EQ(failing, o.tiles.worst.size()) << "every tile holds the bad warp's elements";
}
