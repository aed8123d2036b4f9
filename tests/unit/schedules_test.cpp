// --schedule and --repeat: a missing barrier shows as outputs that change with the schedule; correct
// kernels give the same outputs under every schedule.
#include <gtest/gtest.h>

#include "frontend/input_error.h"
#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {
CheckResult repeated(const std::string& path, int repeat, const std::string& schedule = "forward") {
  CheckRequest r;
  r.bundlePath = path;
  r.launch.jobs = 2;
  r.launch.timeoutSeconds = 30;
  r.repeat = repeat;
  parseSchedule(schedule, r.launch);
  return runCheck(r);
}
}  // namespace

TEST(Schedules, MissingBarrierChangesTheOutputBetweenSchedules) {
  CheckResult r = repeated(bundle("missing_barrier"), 3);
  const Finding* f = find(r, "nondeterministic-output");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->buffer, "out");
  EXPECT_EQ(f->count, 511u) << "every element but the one whose neighbour a schedule happens to write first";
  EXPECT_EQ(f->coords, (std::vector<int64_t>{0, 0}));
  EXPECT_NE(f->title.find("forward schedule and the reverse schedule"), std::string::npos) << f->title;
  EXPECT_EQ(r.report.repeats, 3);
  int differing = 0;
  for (const Finding& x : r.report.findings) differing += x.kind == "nondeterministic-output";
  EXPECT_EQ(differing, 1) << "one finding per buffer, not one per run";
  EXPECT_NE(find(r, "shared-race-raw"), nullptr) << "and the race check says where";
}

TEST(Schedules, CorrectKernelsAgreeUnderEverySchedule) {
  for (const std::string path : {std::string(TD_TESTS_DIR) + "/bundles/missing_barrier/bundle_fixed.toml",
                                 bundle("reduce"), bundle("transpose"), bundle("softmax")}) {
    CheckResult r = repeated(path, 3, "random:11");
    EXPECT_TRUE(r.report.findings.empty()) << path << ": " << r.report.findings[0].title;
  }
}

TEST(Schedules, ScheduleChangesWhatARaceComputes) {
  auto reverse = values(repeated(bundle("missing_barrier"), 1, "reverse"), "out");
  auto forward = values(repeated(bundle("missing_barrier"), 1, "forward"), "out");
  ASSERT_EQ(forward.size(), 512u);
  EXPECT_EQ(forward[0], 0.0) << "forward: thread 0 reads tile[1] before thread 1 wrote it";
  EXPECT_EQ(reverse[0], 1.0) << "reverse: thread 1 ran first";
  EXPECT_THROW(repeated(bundle("missing_barrier"), 1, "sideways"), InputError);
}
