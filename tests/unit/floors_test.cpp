// The folders are floors (docs/architecture.md, "Floors"): a file includes its own folder and the floors
// below, never one above nor a sibling on its own floor. model/ holds the contracts every floor shares and
// includes nothing of the project; the families (checks/) and the executors (runtime/) stand side by side
// on the passes (instrument/) and know nothing of each other.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const std::map<std::string, int> kFloors = {
    {"model", 0},   {"frontend", 1}, {"instrument", 2}, {"checks", 3}, {"runtime", 3},
    {"sanitizer", 4}, {"profiler", 5}, {"history", 5},  {"driver", 6}, {"diff", 7},
    {"bisect", 7},  {"cli", 8},
};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(Floors, EveryIncludeGoesDownOrStaysInItsFolder) {
  fs::path root = fs::path(TD_TESTS_DIR).parent_path();
  std::regex include(R"(^\s*#\s*include\s+"([a-z_]+)/)");
  int files = 0, includes = 0;
  for (const auto& [folder, floor] : kFloors)
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp" && ext != ".cu" && ext != ".cuh" && ext != ".def"))
        continue;
      ++files;
      std::istringstream lines(read(e.path()));
      std::string line;
      for (int n = 1; std::getline(lines, line); ++n) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        auto target = kFloors.find(m[1]);
        if (target == kFloors.end() || target->first == folder) continue;
        ++includes;
        std::string where = e.path().lexically_relative(root).string() + ":" + std::to_string(n) + ": " + line;
        EXPECT_LT(target->second, floor) << (target->second == floor ? "a sibling floor: " : "an upper floor: ") << where;
      }
    }
  EXPECT_GT(files, 300) << "the sources were read";
  EXPECT_GT(includes, 300) << "their includes were read";
}

TEST(Floors, TheModelIncludesNothingOfTheProject) {
  fs::path root = fs::path(TD_TESTS_DIR).parent_path();
  std::regex include(R"(#\s*include\s+"([^"]+)\")");
  int files = 0;
  for (const auto& e : fs::directory_iterator(root / "model")) {
    ++files;
    std::string text = read(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it)
      EXPECT_EQ(0u, (*it)[1].str().rfind("model/", 0)) << e.path().filename().string() << " includes " << (*it)[1];
  }
  EXPECT_GE(files, 10);
}
