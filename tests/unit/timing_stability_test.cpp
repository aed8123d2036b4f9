// profile --executor cuda: the verdict on a kernel's times, on series whose answer is known — a warm-up
// that settles, a steady run, a run whose clocks were held down, a slow drift, a wide spread, too few
// launches to say. The numbers are the GPU's on the device (docs/gpu.md); here the judging alone.
#include <gtest/gtest.h>

#include <algorithm>

#include "profiler/timing_stability.h"
#include "runtime/cuda/nvml.h"

using namespace td;

namespace {

bool says(const TimingStability& t, const std::string& words) {
  return std::any_of(t.verdicts.begin(), t.verdicts.end(), [&](const std::string& v) { return v.find(words) != std::string::npos; });
}

}  // namespace

TEST(TimingStability, AWarmUpThatSettlesIsCountedInLaunches) {
  std::vector<float> ms(200, 1.0f);
  for (int i = 0; i < 30; ++i) ms[i] = 2.0f;  // the first 30 launches pay for cold caches and clocks
  TimingStability t = judgeTiming({ms, {}, "no NVML"});
  EXPECT_EQ(t.window, 10);
  EXPECT_EQ(t.warmup, 30);
  EXPECT_DOUBLE_EQ(t.firstWindowMs, 2.0);
  EXPECT_DOUBLE_EQ(t.medianMs, 1.0);
  EXPECT_DOUBLE_EQ(t.iqrPercent, 0);
  EXPECT_TRUE(says(t, "warm-up needed: 30 launches")) << t.verdicts.front();
  EXPECT_FALSE(t.clocksRead);
}

TEST(TimingStability, ASteadyRunIsStable) {
  std::vector<float> ms;
  for (int i = 0; i < 300; ++i) ms.push_back(1.0f + 0.01f * static_cast<float>(i % 3));  // within 2%
  std::vector<ClockSample> clocks;
  for (int i = 0; i < 50; ++i) clocks.push_back({i * 6, i * 0.01f, 1980, 2619, cuda::kReasonGpuIdle, 41, 120000});
  TimingStability t = judgeTiming({ms, clocks, ""});
  EXPECT_EQ(t.warmup, 0);
  EXPECT_DOUBLE_EQ(t.medianMs, 1.01f);
  EXPECT_TRUE(t.clocksRead);
  EXPECT_EQ(t.reasons, 0u);  // idle between launches says nothing
  EXPECT_EQ(t.verdicts, (std::vector<std::string>{"stable"}));
}

TEST(TimingStability, ClocksHeldDownAreNamedWithTheirReason) {
  std::vector<float> ms(100, 1.0f);
  std::vector<ClockSample> clocks = {{0, 0, 1980, 2619, 0, 50, 0}, {50, 0.5f, 1500, 2619, cuda::kReasonSwPowerCap, 70, 0}};
  TimingStability t = judgeTiming({ms, clocks, ""});
  EXPECT_EQ(t.smMinMHz, 1500u);
  EXPECT_EQ(t.smMaxMHz, 1980u);
  EXPECT_EQ(t.temperatureMaxC, 70u);
  EXPECT_TRUE(says(t, "clocks varied: SM 1500-1980 MHz")) << t.verdicts.front();
  EXPECT_TRUE(says(t, "SW power cap"));
}

TEST(TimingStability, ASlowDriftIsNotAWarmUp) {
  std::vector<float> ms;
  for (int i = 0; i < 300; ++i) ms.push_back(1.0f + 0.06f * static_cast<float>(i) / 300);  // 6% slower by the end
  TimingStability t = judgeTiming({ms, {}, ""});
  EXPECT_EQ(t.warmup, 0);
  EXPECT_GT(t.driftPercent, 3);
  EXPECT_LT(t.driftPercent, 6);
  EXPECT_TRUE(says(t, "drift"));
}

TEST(TimingStability, AWideSpreadAsksForTheMedianOfManyRuns) {
  std::vector<float> ms;
  for (int i = 0; i < 100; ++i) ms.push_back(i % 2 ? 1.2f : 1.0f);
  TimingStability t = judgeTiming({ms, {}, ""});
  EXPECT_NEAR(t.iqrPercent, 0.2 / 1.1 * 100, 0.01);
  EXPECT_TRUE(says(t, "spread"));
}

TEST(TimingStability, TooFewLaunchesAreNotJudged) {
  TimingStability t = judgeTiming({std::vector<float>(10, 1.0f), {}, ""});
  EXPECT_FALSE(t.warmupJudged);
  EXPECT_TRUE(says(t, "too few launches"));
  TimingStability none = judgeTiming(TimedLaunches{});
  EXPECT_TRUE(says(none, "not measured"));
}

TEST(TimingStability, ARunStoppedByTheLaunchCapSaysSo) {
  TimedLaunches run{std::vector<float>(100, 1.0f), {}, "", 2.5, true};
  TimingStability t = judgeTiming(run);
  EXPECT_EQ(t.verdicts.front(), "stable");
  EXPECT_TRUE(says(t, "stopped at 100 launches (the most kept) after 2.5 s"));
  EXPECT_EQ(timingJson(LaunchTiming{"cuda", "GPU", t})["gpu"]["capped"], true);
}

TEST(TimingStability, ALaunchThatDidNotRunSaysWhyAndNothingElse) {
  LaunchTiming t;
  t.executor = "cuda";
  t.notRun = "the GPU driver refused the launch: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  EXPECT_EQ(renderTimingText(t), "timing: not measured: the launch did not run: " + t.notRun + "\n");
  nlohmann::json j = timingJson(t);
  EXPECT_EQ(j["not_run"], t.notRun);
  EXPECT_FALSE(j.contains("gpu") || j.contains("simulated_work"));
}

TEST(TimingStability, TheCpuExecutorReportsWorkAndNoTime) {
  LaunchTiming t;
  t.executor = "cpu";
  t.blocksRun = 16;
  t.threadsRun = 4096;
  std::string text = renderTimingText(t);
  EXPECT_NE(text.find("not measured"), std::string::npos);
  EXPECT_EQ(text.find(" ms"), std::string::npos) << text;
  nlohmann::json j = timingJson(t);
  EXPECT_FALSE(j.contains("gpu"));
  EXPECT_EQ(j["simulated_work"]["threads"], 4096);
}
