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

namespace fs = std::filesystem;

namespace td {

std::string profilesDir() { return dataDir("profiles", "TILE_DOCTOR_PROFILES"); }

namespace {
Profile readProfile(const fs::path& file) {
  toml::table t;
  try {
    t = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw InputError(file.string(), static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
  Profile p;
  p.file = file.string();
  auto need = [&](const char* key) -> const toml::node& {
    const toml::node* n = t.get(key);
    if (!n) throw InputError(file.string(), 0, fmt::format("profile lacks '{}'", key));
    return *n;
  };
  auto integer = [&](const char* key) { return need(key).value<int64_t>().value_or(0); };
  auto number = [&](const char* key) { return need(key).value<double>().value_or(0); };
  p.name = need("name").value<std::string>().value_or("");
  p.vendor = need("vendor").value<std::string>().value_or("");
  p.arch = need("arch").value<std::string>().value_or("");
  p.warpSize = static_cast<int>(integer("warp_size"));
  p.sharedPerBlock = integer("shared_per_block");
  p.sharedPerSm = integer("shared_per_sm");
  p.threadsPerBlock = integer("threads_per_block");
  p.threadsPerSm = integer("threads_per_sm");
  p.registersPerSm = integer("registers_per_sm");
  p.smCount = integer("sm_count");
  p.memoryBytes = integer("memory_bytes");
  p.bandwidthGBs = number("bandwidth_gbs");
  p.fp16Tflops = number("fp16_tflops");
  if (const toml::node* n = t.get("private_per_thread")) p.privatePerThread = n->value<int64_t>().value_or(0);
  for (auto [key, field] : {std::pair<const char*, int64_t*>{"blocks_per_sm", &p.blocksPerSm},
                            {"reserved_shared_per_block", &p.reservedSharedPerBlock},
                            {"shared_alloc_unit", &p.sharedAllocUnit}, {"register_alloc_unit", &p.registerAllocUnit},
                            {"registers_per_block", &p.registersPerBlock}})
    if (const toml::node* n = t.get(key)) {
      *field = n->value<int64_t>().value_or(-1);
      if (*field < 0)
        throw InputError(file.string(), static_cast<int>(n->source().begin.line), fmt::format("{} must be a count", key));
    }
  if (const toml::node* n = t.get("default_launch_bounds")) {
    p.defaultLaunchBounds = n->value<int64_t>().value_or(0);
    if (p.defaultLaunchBounds <= 0)
      throw InputError(file.string(), static_cast<int>(n->source().begin.line), "default_launch_bounds must be positive");
  }
  // A list of names tile-doctor knows (`known`); anything else is bad input at the list's line.
  auto names = [&](const char* key, const char* what, const std::vector<std::string>& known) {
    std::vector<std::string> out;
    const toml::node* n = t.get(key);
    if (!n) return out;
    int line = static_cast<int>(n->source().begin.line);
    const toml::array* a = n->as_array();
    if (!a) throw InputError(file.string(), line, fmt::format("{} must be a list of {}", key, what));
    for (const toml::node& e : *a) {
      std::string name = e.value<std::string>().value_or("");
      if (std::find(known.begin(), known.end(), name) == known.end())
        throw InputError(file.string(), line, fmt::format("{} lists '{}', not one of: {}", key, name, fmt::join(known, ", ")));
      out.push_back(name);
    }
    return out;
  };
  p.unsupported = names("unsupported", "feature names", hardwareFeatureNames());
  p.ignores = names("ignores", "statement kinds", targetSemanticsNames());
  auto triple = [&](const char* key, int64_t* out) {
    const toml::node& n = need(key);
    int line = static_cast<int>(n.source().begin.line);
    const toml::array* a = n.as_array();
    if (!a || a->size() != 3) throw InputError(file.string(), line, fmt::format("{} must be [x, y, z]", key));
    for (size_t i = 0; i < 3; ++i) {
      out[i] = a->get(i)->value<int64_t>().value_or(0);
      if (out[i] <= 0) throw InputError(file.string(), line, fmt::format("{} must be positive", key));
    }
  };
  triple("grid_max", p.gridMax);
  triple("block_max", p.blockMax);
  if (p.warpSize != 32 && p.warpSize != 64)
    throw InputError(file.string(), static_cast<int>(need("warp_size").source().begin.line), "warp_size must be 32 or 64");
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
