#include "frontend/profile.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>
#include <unistd.h>

#include "frontend/input_error.h"
#include "frontend/paths.h"
#include "frontend/toml_reader.h"

namespace fs = std::filesystem;

namespace td {

std::string profilesDir() { return dataDir("profiles", "TILE_DOCTOR_PROFILES"); }

namespace {
constexpr uint64_t kLargestProfile = 1u << 20;  // a profile is a page of TOML

Profile readProfile(const fs::path& file) {
  TomlReader r(file.string());
  toml::table t = r.parse("the target profile", kLargestProfile);
  const std::string where = "the profile";
  r.allowOnly(t, {"name", "vendor", "arch", "warp_size", "shared_per_block", "shared_per_sm", "threads_per_block",
                  "threads_per_sm", "registers_per_sm", "sm_count", "memory_bytes", "bandwidth_gbs", "fp16_tflops",
                  "private_per_thread", "blocks_per_sm", "reserved_shared_per_block", "shared_alloc_unit",
                  "register_alloc_unit", "registers_per_block", "default_launch_bounds", "unsupported", "ignores",
                  "grid_max", "block_max"},
              where);
  Profile p;
  p.file = file.string();
  p.name = r.str(t, "name", where, true);
  p.vendor = r.str(t, "vendor", where, true);
  p.arch = r.str(t, "arch", where, true);
  p.warpSize = static_cast<int>(r.integer(t, "warp_size", where, true));
  if (p.warpSize != 32 && p.warpSize != 64) r.fail(t.get("warp_size"), "warp_size must be 32 or 64");
  // Counts: required ones, then those a profile may leave to their defaults; none negative.
  auto count = [&](const char* key, bool required, int64_t fallback) {
    int64_t v = r.integer(t, key, where, required, fallback);
    if (v < 0) r.fail(t.get(key), fmt::format("{} must be a count", key));
    return v;
  };
  p.sharedPerBlock = count("shared_per_block", true, 0);
  p.sharedPerSm = count("shared_per_sm", true, 0);
  p.threadsPerBlock = count("threads_per_block", true, 0);
  p.threadsPerSm = count("threads_per_sm", true, 0);
  p.registersPerSm = count("registers_per_sm", true, 0);
  p.smCount = count("sm_count", true, 0);
  p.memoryBytes = count("memory_bytes", true, 0);
  p.bandwidthGBs = r.number(t, "bandwidth_gbs", where, true);
  p.fp16Tflops = r.number(t, "fp16_tflops", where, true);
  p.privatePerThread = count("private_per_thread", false, p.privatePerThread);
  for (auto [key, field] : {std::pair<const char*, int64_t*>{"blocks_per_sm", &p.blocksPerSm},
                            {"reserved_shared_per_block", &p.reservedSharedPerBlock},
                            {"shared_alloc_unit", &p.sharedAllocUnit}, {"register_alloc_unit", &p.registerAllocUnit},
                            {"registers_per_block", &p.registersPerBlock}})
    *field = count(key, false, *field);
  if (t.get("default_launch_bounds")) {
    p.defaultLaunchBounds = r.integer(t, "default_launch_bounds", where, true);
    if (p.defaultLaunchBounds <= 0) r.fail(t.get("default_launch_bounds"), "default_launch_bounds must be positive");
  }
  // A list of names tile-doctor knows (`known`); anything else is bad input at the list's line.
  auto names = [&](const char* key, const char* what, const std::vector<std::string>& known) {
    std::vector<std::string> out;
    const toml::node* n = t.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) r.fail(n, fmt::format("{} must be a list of {}", key, what));
    for (const toml::node& e : *a) {
      std::string name = e.value<std::string>().value_or("");
      if (std::find(known.begin(), known.end(), name) == known.end())
        r.fail(n, fmt::format("{} lists '{}', not one of: {}", key, name, fmt::join(known, ", ")));
      out.push_back(name);
    }
    return out;
  };
  p.unsupported = names("unsupported", "feature names", hardwareFeatureNames());
  p.ignores = names("ignores", "statement kinds", targetSemanticsNames());
  auto triple = [&](const char* key, int64_t* out) {
    const toml::node* n = t.get(key);
    if (!n) r.fail(t.source().begin.line, fmt::format("{} needs '{}'", where, key));
    const toml::array* a = n->as_array();
    if (!a || a->size() != 3) r.fail(n, fmt::format("{} must be [x, y, z]", key));
    for (size_t i = 0; i < 3; ++i) {
      if (!a->get(i)->is_integer()) r.fail(n, fmt::format("{} must be [x, y, z] integers", key));
      out[i] = a->get(i)->as_integer()->get();
      if (out[i] <= 0) r.fail(n, fmt::format("{} must be positive", key));
    }
  };
  triple("grid_max", p.gridMax);
  triple("block_max", p.blockMax);
  return p;
}
}  // namespace

const std::vector<std::string>& hardwareFeatureNames() {
  static const std::vector<std::string> names = {"tma", "wgmma", "mbarrier", "cluster", "fp16-accumulate-mma"};
  return names;
}

const std::vector<std::string>& targetSemanticsNames() {
  static const std::vector<std::string> names = {"partial-barrier"};
  return names;
}

std::vector<Profile> loadAllProfiles() {
  std::vector<Profile> out;
  fs::path dir = profilesDir();
  if (!fs::is_directory(dir)) throw InputError(dir.string(), 0, "profiles folder not found (set TILE_DOCTOR_PROFILES)");
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".toml") out.push_back(readProfile(e.path()));
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return out;
}

Profile loadProfile(const std::string& name) {
  std::vector<Profile> all = loadAllProfiles();
  std::string known;
  for (auto& p : all) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw InputError("--target", 0, fmt::format("unknown target '{}' (known: {})", name, known));
}

}  // namespace td
