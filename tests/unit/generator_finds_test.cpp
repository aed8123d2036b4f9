// What the kernel generator (tests/kernel_gen) found, as kernels written here: a product the GPU fuses into
// an fma computes the same bits checked and unchecked, on any host; a helper reading a __shared__ array
// through a plain pointer is race- and init-checked; a shared counter reset with no barrier before the
// atomic increments is a race. Each correct kernel is clean, each planted twin found.
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

#include "test_support.h"

using namespace td;
using namespace td::test;

namespace {

CheckResult checkGenerated(const std::string& manifest, const std::string& checks) {
  return checkWith(bundleFile("generator_finds", manifest), checks);
}

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

TEST(GeneratorFinds, ProductsFuseAsTheGpuFusesThemCheckedOrNot) {
  CheckResult plain = checkGenerated("products_used_twice", "launch");
  auto x = values(plain, "x"), y = values(plain, "y"), z = values(plain, "z");
  ASSERT_EQ(y.size(), 200u);
  for (size_t i = 0; i < y.size(); ++i) {
    float a = static_cast<float>(x[i]), b = static_cast<float>(x[(i + 1) % x.size()]);
    // The product used twice stays a product; the single-use one is fused into each (NVPTX's choice).
    EXPECT_EQ(bitsOf(static_cast<float>(y[i])), bitsOf(std::fmaf(b, 1.7f, a * 0.3f))) << "y[" << i << "]";
    EXPECT_EQ(bitsOf(static_cast<float>(z[i])), bitsOf(std::fmaf(-b, 0.1f, a * 0.3f) + 1.0f)) << "z[" << i << "]";
  }
  for (const char* checks : {"bounds", "race", "init", "sync", "numerics", "all"}) {
    SCOPED_TRACE(std::string("--checks ") + checks);
    CheckResult r = checkGenerated("products_used_twice", checks);
    EXPECT_TRUE(r.report.findings.empty());
    for (const char* out : {"y", "z"}) {
      auto checked = values(r, out), unchecked = values(plain, out);
      ASSERT_EQ(checked.size(), unchecked.size());
      for (size_t i = 0; i < checked.size(); ++i)
        EXPECT_EQ(bitsOf(static_cast<float>(checked[i])), bitsOf(static_cast<float>(unchecked[i]))) << out << "[" << i << "]";
    }
  }
}

TEST(GeneratorFinds, AHelpersReadOfSharedMemoryIsChecked) {
  for (const char* checks : {"race", "init", "all"})
    EXPECT_TRUE(checkGenerated("helper_reads_shared", checks).report.findings.empty()) << checks;
  CheckResult r = checkGenerated("helper_reads_shared_no_barrier", "race");
  const Finding* f = find(r, "shared-race-raw");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->loc.function, "read_slot");  // the read in the helper
  EXPECT_EQ(f->partner.function, "helper_reads_shared");  // the write in the kernel
  EXPECT_NE(find(checkGenerated("helper_reads_shared_no_barrier", "init"), "uninitialized-shared-read"), nullptr);
}

TEST(GeneratorFinds, ACounterResetRacesWithTheIncrementsItDoesNotPrecede) {
  EXPECT_TRUE(checkGenerated("counter_reset", "all").report.findings.empty());
  CheckResult r = checkGenerated("counter_reset_no_barrier", "race");
  const Finding* f = find(r, "shared-race-waw");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->loc.line, 37u);      // the atomicAdd
  EXPECT_EQ(f->partner.line, 33u);  // thread 0's reset
}
