// The compile cache: a repeated compile of the same source is served from it, and an entry whose
// headers changed since is not used.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
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
  EXPECT_EQ(cache.entries(), 3u) << "the kernel, the checks' device runtime and the CPU executor's libdevice";
  EXPECT_EQ(cache.entries("objects", ".o"), 1u) << "the instrumented kernel's host object code";
  EXPECT_EQ(values(check(manifest), "Out"), std::vector<double>(4, 7));
  EXPECT_EQ(cache.entries(), 3u) << "the repeat was served from the entries";
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

namespace {

std::set<fs::path> filesIn(const fs::path& dir) {
  std::set<fs::path> out;
  if (fs::is_directory(dir))
    for (auto& e : fs::directory_iterator(dir)) out.insert(e.path());
  return out;
}

}  // namespace

// Entries are sealed with their key and content (issue 32): one kernel's entries copied over another's
// names are not served — the other kernel is compiled again and computes its own values.
TEST(CompileCache, AnEntryCopiedOverAnothersIsNotServed) {
  CacheFolder cache;
  fs::path src = cache.dir / "src";
  fs::create_directories(src);
  auto bundleOf = [&](const std::string& name, int value) {
    write(src / (name + ".cu"), "extern \"C\" __global__ void k(int* out) { out[threadIdx.x] = " + std::to_string(value) + "; }\n");
    write(src / (name + ".toml"),
          "[kernel]\nsource = \"" + name + ".cu\"\nentry = \"k\"\n[launch]\ngrid = [1]\nblock = [4]\n"
          "[[args]]\nname = \"Out\"\ntype = \"int32*\"\nshape = [4]\ninit = \"zeros\"\noutput = true\n");
    return (src / (name + ".toml")).string();
  };
  std::string seven = bundleOf("seven", 7), nine = bundleOf("nine", 9);
  EXPECT_EQ(values(check(seven), "Out"), std::vector<double>(4, 7));
  std::set<fs::path> modules = filesIn(cache.dir / "modules"), objects = filesIn(cache.dir / "objects");
  EXPECT_EQ(values(check(nine), "Out"), std::vector<double>(4, 9));
  std::vector<fs::path> nineModules, nineObjects;
  for (const fs::path& p : filesIn(cache.dir / "modules")) if (!modules.count(p)) nineModules.push_back(p);
  for (const fs::path& p : filesIn(cache.dir / "objects")) if (!objects.count(p)) nineObjects.push_back(p);
  ASSERT_EQ(nineModules.size(), 2u) << "the .bc and .deps of the second kernel";
  ASSERT_EQ(nineObjects.size(), 1u);
  // Seven's entries (the module whose .deps names seven.cu, and its object) under nine's names.
  fs::path sevenBase;
  for (const fs::path& q : modules) {
    std::ifstream in(q);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (q.extension() == ".deps" && text.find("seven.cu") != std::string::npos) sevenBase = q.parent_path() / q.stem();
  }
  ASSERT_FALSE(sevenBase.empty());
  for (const fs::path& p : nineModules)
    fs::copy_file(sevenBase.string() + p.extension().string(), p, fs::copy_options::overwrite_existing);
  ASSERT_EQ(objects.size(), 1u);
  fs::copy_file(*objects.begin(), nineObjects[0], fs::copy_options::overwrite_existing);
  EXPECT_EQ(values(check(nine), "Out"), std::vector<double>(4, 9)) << "compiled again, not served seven's entry";
  EXPECT_EQ(values(check(seven), "Out"), std::vector<double>(4, 7));
}
