// The executors know no check family (issue 13): runtime/cpu and runtime/cuda allocate regions by scope
// and lower generic primitives, nothing more. This reads their sources for what would betray a family:
// a family's name in quotes or as "<name> check(s)"/"<name> family"/family "<name>", and any identifier
// a family owns - the macros and types of its headers under checks/ and the hooks its device source
// defines.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <set>
#include <sstream>

#include "model/family.h"

using namespace td;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> filesUnder(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  return out;
}

// What checks/ (and the region ids in model/regions.h) declare: #define names, struct/typedef names of its headers, __td_ functions its device
// sources define.
std::set<std::string> familyIdentifiers(const fs::path& checks, const fs::path& regionIds) {
  std::set<std::string> names;
  std::regex define(R"(#define\s+(\w+))"), type(R"((?:struct|typedef struct)\s+(td_\w+))"),
      hook(R"(__device__\s+[\w\s\*]*?\b(__td_\w+)\s*\()");
  std::vector<fs::path> files = filesUnder(checks);
  files.push_back(regionIds);  // the families' region ids, numbered together on the ground floor
  for (const fs::path& p : files) {
    std::string ext = p.extension().string();
    if (ext != ".h" && ext != ".cu" && ext != ".cuh") continue;
    std::string text = read(p);
    for (const std::regex& re : {define, type, hook})
      for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) {
        std::string n = (*it)[1];
        if (n.rfind("TD_", 0) == 0 && n.size() > 3 && n.back() == 'H' && n[n.size() - 2] == '_') continue;  // include guards
        names.insert(n);
      }
  }
  return names;
}

}  // namespace

TEST(Families, ExecutorsNameNoFamily) {
  fs::path root = fs::path(TD_TESTS_DIR).parent_path();
  std::set<std::string> owned = familyIdentifiers(root / "checks", root / "model" / "regions.h");
  ASSERT_TRUE(owned.count("TD_REGION_SHARED_HISTORY")) << "the family headers were read";
  ASSERT_TRUE(owned.count("__td_race_shared")) << "the family device sources were read";
  ASSERT_TRUE(owned.count("td_granule"));
  std::vector<std::regex> phrases;
  for (const Family& f : families()) {
    phrases.emplace_back("\"" + f.name + "\"");
    phrases.emplace_back("\\b" + f.name + "[- ](check|checks|checked|family)\\b", std::regex::icase);
    phrases.emplace_back("family \"?" + f.name + "\\b", std::regex::icase);
  }
  std::regex identifier(R"(\b\w+\b)");
  int files = 0;
  for (const char* dir : {"runtime/cpu", "runtime/cuda"})
    for (const fs::path& p : filesUnder(root / dir)) {
      ++files;
      std::istringstream lines(read(p));
      std::string line;
      for (int n = 1; std::getline(lines, line); ++n) {
        std::string where = p.lexically_relative(root).string() + ":" + std::to_string(n) + ": " + line;
        for (const std::regex& re : phrases) EXPECT_FALSE(std::regex_search(line, re)) << where;
        for (std::sregex_iterator it(line.begin(), line.end(), identifier), end; it != end; ++it)
          EXPECT_FALSE(owned.count(it->str())) << "'" << it->str() << "' belongs to a family: " << where;
      }
    }
  EXPECT_GT(files, 20) << "both executors' sources were read";
}
