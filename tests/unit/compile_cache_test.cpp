// The compile cache: a repeated compile of the same source is served from it, and an entry whose
// headers changed since is not used.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "frontend/compile_cache.h"
#include "test_support.h"

using namespace td;
using namespace td::test;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

}  // namespace

TEST(CompileCache, ServesARepeatAndNoticesAChangedHeader) {
  CacheFolder cache;
  fs::path src = cache.dir / "src";
  fs::create_directories(src);
  write(src / "value.h", "#define VALUE 7\n");
  write(src / "k.cu", "#include \"value.h\"\nextern \"C\" __global__ void k(int* out) { out[threadIdx.x] = VALUE; }\n");
  write(src / "bundle.toml",
        "[kernel]\nsource = \"k.cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [4]\n"
        "[[args]]\nname = \"Out\"\ntype = \"int32*\"\nshape = [4]\ninit = \"zeros\"\noutput = true\n");
  std::string manifest = (src / "bundle.toml").string();
  EXPECT_EQ(values(check(manifest), "Out"), std::vector<double>(4, 7));
  EXPECT_EQ(cache.entries(), 2u) << "the kernel and the CPU executor's libdevice";
  EXPECT_EQ(cache.entries("objects", ".o"), 1u) << "the instrumented kernel's host object code";
  EXPECT_EQ(values(check(manifest), "Out"), std::vector<double>(4, 7));
  EXPECT_EQ(cache.entries(), 2u) << "the repeat was served from the entry";
  EXPECT_EQ(cache.entries("objects", ".o"), 1u) << "and its object code too: nothing of the run's addresses is in it";

  write(src / "value.h", "#define VALUE 9\n");  // same source file, another header
  fs::last_write_time(src / "value.h", fs::last_write_time(src / "value.h") + std::chrono::seconds(2));
  EXPECT_EQ(values(check(manifest), "Out"), std::vector<double>(4, 9)) << "the stale entry was not used";
  EXPECT_EQ(cache.entries("objects", ".o"), 2u) << "another kernel, another object";
}

TEST(CompileCache, OffMeansNoFolder) {
  setenv("TILE_DOCTOR_CACHE", "off", 1);
  EXPECT_EQ(cacheDir(), "");
  unsetenv("TILE_DOCTOR_CACHE");
}
