// A check family added from the tests alone (tests/families/store_count): registered at run time, it
// instruments, keeps a grid-scope region, reads it back and reports, on the CPU executor here and on the
// CUDA executor where a GPU is present, through the same code paths as the built-in families.
#include <gtest/gtest.h>

#include "model/family.h"
#include "instrument/pipeline.h"
#include "runtime/cuda/cuda_executor.h"
#include "model/rules.h"
#include "test_support.h"
#include "tests/families/store_count/store_count_family.h"

using namespace td;
using namespace td::test;

namespace {

// tests/bundles/reduce at N = 4000: 16 blocks of 256 threads. Line 5 stores once per thread (4096), the
// tree of line 8 stores 128 + 64 + ... + 1 = 255 times per block (4080), line 11 once per block (16).
CheckResult countStores(const std::string& executor, const std::string& checks) {
  CheckRequest r;
  r.bundlePath = bundle("reduce");
  r.target = "nvidia-h200";
  r.checks = checks;
  r.executor = executor;
  r.launch.jobs = 2;
  r.launch.timeoutSeconds = 60;
  return runCheck(r);
}

std::map<unsigned, uint64_t> countsByLine(const CheckResult& res) {
  std::map<unsigned, uint64_t> byLine;
  for (const Finding& f : res.report.findings)
    if (f.kind == kStoreCountKind) byLine[f.loc.line] += f.count;
  return byLine;
}

void expectReduceCounts(const CheckResult& res) {
  std::map<unsigned, uint64_t> byLine = countsByLine(res);
  EXPECT_EQ(byLine[5], 4096u);
  EXPECT_EQ(byLine[8], 4080u);
  EXPECT_EQ(byLine[11], 16u);
  EXPECT_EQ(byLine.size(), 3u);
}

}  // namespace

TEST(ToyFamily, KnownToChecksAndRulesOnlyWhileRegistered) {
  if (findFamily("store-count")) GTEST_SKIP() << "the toy family is built in (checks/families.cpp lists it)";
  {
    ScopedStoreCountFamily toy;
    EXPECT_TRUE(CheckSet::known().count("store-count"));
    const Rule* r = findRule(kStoreCountKind);
    ASSERT_NE(r, nullptr);
    EXPECT_STREQ(r->family, "store-count");
    EXPECT_THROW(registerFamily(storeCountFamily()), std::logic_error) << "a name registers once";
    Family clash = storeCountFamily();
    clash.name = "clash";
    clash.regions[0].second.bytes_per_site = 8;
    EXPECT_THROW(registerFamily(clash), std::logic_error) << "a region id means one thing";
  }
  EXPECT_FALSE(CheckSet::known().count("store-count"));
  EXPECT_EQ(findRule(kStoreCountKind), nullptr);
}

TEST(ToyFamily, CountsStoresPerSiteOnTheCpu) {
  ScopedStoreCountFamily toy;
  CheckResult res = countStores("cpu", "store-count");
  expectReduceCounts(res);
  // Beside the built-in families, which still see nothing wrong in this kernel.
  CheckResult all = countStores("cpu", "store-count,bounds,race,init,sync");
  expectReduceCounts(all);
  for (const Finding& f : all.report.findings) EXPECT_EQ(f.kind, kStoreCountKind) << f.title;
  // Without the family, no counts: nothing of it runs.
  EXPECT_TRUE(countsByLine(countStores("cpu", "bounds")).empty());
}

TEST(ToyFamily, CountsStoresPerSiteOnTheGpu) {
  std::string why;
  if (!cuda::gpuAvailable(0, why)) GTEST_SKIP() << "no GPU: " << why;
  ScopedStoreCountFamily toy;
  expectReduceCounts(countStores("cuda", "store-count"));
  expectReduceCounts(countStores("cuda", "store-count,bounds,race,init,sync"));
}
