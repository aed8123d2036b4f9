// profile kernel.py --timeline-png: the columns the picture is drawn from hold the tensors alive at each
// column's highest point, stacked oldest first; the image shows them in their lines' colours, the peak
// column taller than the rest.
#include <cairo.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "frontend/input_error.h"
#include "profiler/memory_columns.h"

using namespace td;
using nlohmann::json;

namespace {

// A: 4 KiB at line 10, then B: 12 KiB at line 11 (the peak, 16 KiB), a launch, B freed, C: 2 KiB at line 12.
json threeTensors() {
  json events = json::array({
      {{"event", "alloc"}, {"tensor", 1}, {"bytes", 4096}, {"where", "s.py:10"}, {"current", 4096}},
      {{"event", "alloc"}, {"tensor", 2}, {"bytes", 12288}, {"where", "s.py:11"}, {"current", 16384}},
      {{"event", "launch"}, {"launch", 1}, {"where", "s.py:13"}, {"current", 16384}},
      {{"event", "free"}, {"tensor", 2}, {"bytes", 12288}, {"current", 4096}},
      {{"event", "alloc"}, {"tensor", 3}, {"bytes", 2048}, {"where", "s.py:12"}, {"current", 6144}},
  });
  return {{"peak_bytes", 16384}, {"peak_event", 1}, {"events", events}};
}

}  // namespace

TEST(MemoryTimeline, EachColumnStacksWhatIsAliveAtItsHighestPoint) {
  MemoryColumns m = memoryColumns(threeTensors(), 900);  // fewer events than columns: one column each
  ASSERT_EQ(m.columns.size(), 5u);
  EXPECT_EQ(m.columns[0].stack, (std::vector<int64_t>{1}));
  EXPECT_EQ(m.columns[1].stack, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(m.columns[1].bytes, 16384);
  EXPECT_EQ(m.columns[3].stack, (std::vector<int64_t>{1}));
  EXPECT_EQ(m.columns[4].stack, (std::vector<int64_t>{1, 3}));
  ASSERT_EQ(m.launches.size(), 1u);
  EXPECT_EQ(m.launches[0].event, 2);
  EXPECT_EQ(m.tensor(2).where, "s.py:11");
  EXPECT_EQ((std::vector<int>{m.tensor(1).line, m.tensor(2).line, m.tensor(3).line}), (std::vector<int>{0, 1, 2}));

  MemoryColumns pooled = memoryColumns(threeTensors(), 2);  // events 0-1 and 2-4: each at its highest
  ASSERT_EQ(pooled.columns.size(), 2u);
  EXPECT_EQ(pooled.columns[0].shownEvent, 1);
  EXPECT_EQ(pooled.columns[0].bytes, 16384);
  EXPECT_EQ(pooled.columns[1].shownEvent, 2);  // the launch, B still alive
  EXPECT_EQ(pooled.columns[1].bytes, 16384);
}

TEST(MemoryTimeline, ATimelineWithoutEventsIsRefused) {
  EXPECT_THROW(memoryColumns(json::object(), 10), std::invalid_argument);
}

TEST(MemoryTimeline, ThePictureShowsThePeakColumnInItsLinesColours) {
  auto path = (std::filesystem::temp_directory_path() / "td-memory-timeline-test.png").string();
  MemoryColumns m = memoryColumns(threeTensors(), 900);
  writeMemoryTimelinePng(path, "three tensors", m);
  cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
  ASSERT_EQ(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
  int stride = cairo_image_surface_get_stride(s);
  const unsigned char* px = cairo_image_surface_get_data(s);
  auto at = [&](int x, int y) {
    const unsigned char* p = px + y * stride + x * 4;  // RGB24: B, G, R, unused on little-endian
    return Rgb8{p[2], p[1], p[0]};
  };
  auto same = [](Rgb8 a, Rgb8 b) { return a.r == b.r && a.g == b.g && a.b == b.b; };
  // layout of writeMemoryTimelinePng: plot from x = 80, 180 px a column here (900 / 5), y from 56 to 416
  const int left = 80, top = 56, plotH = 360, colW = 180;
  auto yOf = [&](double bytes) { return static_cast<int>(top + plotH - bytes / (16384 * 1.05) * plotH); };
  int peakX = left + colW + colW / 2 + 20;  // clear of the launch line
  EXPECT_TRUE(same(at(peakX, yOf(2048)), lineColour(0)));   // A at the bottom
  EXPECT_TRUE(same(at(peakX, yOf(10000)), lineColour(1)));  // B on top of it
  int afterX = left + 3 * colW + colW / 2;
  EXPECT_TRUE(same(at(afterX, yOf(2048)), lineColour(0)));
  EXPECT_TRUE(same(at(afterX, yOf(10000)), (Rgb8{255, 255, 255})));  // B freed: nothing there
  cairo_surface_destroy(s);
  std::filesystem::remove(path);
}

TEST(MemoryTimeline, AnUnwritablePictureNamesTheFile) {
  try {
    writeMemoryTimelinePng("/nonexistent-dir/t.png", "t", memoryColumns(threeTensors(), 10));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file, "/nonexistent-dir/t.png");
    EXPECT_NE(std::string(e.what()).find("cannot write"), std::string::npos) << e.what();
  }
}
