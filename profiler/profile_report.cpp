#include "profiler/profile_report.h"
#include "profiler/register_budget.h"

#include <fmt/format.h>

#include "frontend/input_error.h"
#include "frontend/manifest.h"

namespace td {

namespace {

// A parameter halved, the launch's own resources re-evaluated from the manifest (grid, block, dynamic
// shared memory: what a parameter changes without recompiling): does one more block fit?
std::vector<std::string> halvingSuggestions(const Bundle& base, const std::vector<std::pair<std::string, std::string>>& params,
                                            const LaunchProfile& launch, const TargetView& view) {
  std::vector<std::string> out;
  const std::string& manifest = base.manifestPath;
  for (const auto& [name, value] : base.params) {
    if (value < 2) continue;
    std::vector<std::pair<std::string, std::string>> halved = params;
    halved.push_back({name, std::to_string(value / 2)});
    try {
      Bundle b = loadBundle(manifest, halved);
      int64_t dynamic = b.targetShared >= 0 ? b.targetShared : b.dynamicShared;
      LaunchResources r{b.threadsPerBlock(), launch.staticSharedBytes + dynamic, view.resources.registersPerThread};
      Occupancy o = occupancyOf(r, view.target);
      if (o.blocksPerSm > view.occupancy.blocksPerSm && o.occupancy > view.occupancy.occupancy)
        out.push_back(fmt::format("halving {} ({} -> {}): {} blocks per {} ({:.0f}% occupancy)", name, value, value / 2,
                                  o.blocksPerSm, view.target.vendor == "MetaX" ? "CU" : "SM", 100 * o.occupancy));
    } catch (const InputError&) {  // a halved parameter the manifest refuses (a shape that no longer divides)
    }
  }
  return out;
}

std::string kib(int64_t bytes) {
  return bytes >= 1024 && bytes % 1024 == 0 ? fmt::format("{} bytes ({} KiB)", bytes, bytes / 1024) : fmt::format("{} bytes", bytes);
}

}  // namespace

std::string ptxArchFor(const std::vector<std::string>& targets) {
  for (const std::string& t : targets)
    if (Profile p = loadProfile(t); p.vendor == "NVIDIA") return p.arch;
  return "";
}

ProfileReport buildProfileReport(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& params,
                                 const std::vector<std::string>& targets) {
  std::string ptxArch = ptxArchFor(targets);  // bad input (an unknown target) before any compile
  return buildProfileReport(profileLaunch(manifest, params, ptxArch), params, targets);
}

ProfileReport buildProfileReport(LaunchProfile launch, const std::vector<std::pair<std::string, std::string>>& params,
                                 const std::vector<std::string>& targets) {
  ProfileReport r;
  std::vector<Profile> profiles;
  for (const std::string& t : targets) profiles.push_back(loadProfile(t));
  r.launch = std::move(launch);
  const Bundle base = loadBundle(r.launch.bundle, params);  // each target's halved parameters start from it
  for (const Profile& p : profiles) {
    TargetView v;
    v.target = p;
    v.resources.threadsPerBlock = r.launch.threadsPerBlock();
    v.resources.sharedPerBlock = r.launch.sharedPerBlock();
    // NVIDIA's assembler allocates for NVIDIA: its count stands for an NVIDIA target of that architecture.
    if (r.launch.registers && p.vendor == "NVIDIA" && r.launch.registers->source.find(p.arch) != std::string::npos)
      v.resources.registersPerThread = r.launch.registers->registers;
    v.occupancy = occupancyOf(v.resources, p);
    if (v.occupancy.blocksPerSm > 0 && p.smCount > 0)
      v.waves = double(r.launch.blocks()) / double(v.occupancy.blocksPerSm * p.smCount);
    if (v.resources.sharedPerBlock > p.sharedPerBlock)
      v.overLimit.push_back(fmt::format("shared memory: {} a block, {} allows {}", v.resources.sharedPerBlock, p.name, p.sharedPerBlock));
    if (v.resources.threadsPerBlock > p.threadsPerBlock)
      v.overLimit.push_back(fmt::format("threads: {} a block, {} allows {}", v.resources.threadsPerBlock, p.name, p.threadsPerBlock));
    if (p.privatePerThread > 0 && r.launch.privateBytes > p.privatePerThread)
      v.overLimit.push_back(fmt::format("private memory: {} bytes a thread, {} allows {}", r.launch.privateBytes, p.name, p.privatePerThread));
    if (v.resources.registersPerThread > 0) {  // as allocated, per warp; the block's limit, else the SM's file
      int64_t perBlock = blockRegisters(v.resources.registersPerThread, v.resources.threadsPerBlock, p);
      int64_t most = p.registersPerBlock > 0 ? p.registersPerBlock : p.registersPerSm;
      if (most > 0 && perBlock > most)
        v.overLimit.push_back(fmt::format("registers: {} a block ({} a thread, allocated per warp), {} allows {}", perBlock,
                                          v.resources.registersPerThread, p.name, most));
    }
    v.suggestions = halvingSuggestions(base, params, r.launch, v);
    r.targets.push_back(std::move(v));
  }
  return r;
}

std::string renderProfileText(const ProfileReport& r) {
  const LaunchProfile& l = r.launch;
  std::string out = fmt::format("kernel {} ({}): grid ({},{},{}) x block ({},{},{}): {} blocks of {} threads\n", l.kernel,
                                l.bundle, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], l.blocks(),
                                l.threadsPerBlock());
  out += fmt::format("  global memory: {}\n", kib(l.globalBytes));
  for (const LaunchProfile::Buffer& b : l.buffers)
    out += fmt::format("    {} {}[{}]: {}{}\n", b.name, b.type, fmt::join(b.shape, ", "), kib(b.bytes), b.output ? " (output)" : "");
  std::string arrays;
  for (const auto& [name, bytes] : l.staticShared) arrays += fmt::format("{}{} {}", arrays.empty() ? "" : ", ", name, bytes);
  out += fmt::format("  shared memory a block: {} static{} + {} dynamic", l.staticSharedBytes, arrays.empty() ? "" : " (" + arrays + ")",
                     l.dynamicShared);
  if (l.targetDynamicShared >= 0 && l.targetDynamicShared != l.dynamicShared)
    out += fmt::format(" (the target's own lowering: {} dynamic)", l.targetDynamicShared);
  out += fmt::format("\n  private memory a thread: {} bytes of stack arrays (at least; spills come on top)\n", l.privateBytes);
  if (l.registers)
    out += fmt::format("  registers a thread: {}; stack frame {} bytes, spill stores {}, spill loads {} (from {}; NVIDIA's "
                       "allocation)\n", l.registers->registers, l.registers->stackFrame, l.registers->spillStores,
                       l.registers->spillLoads, l.registers->source);
  else
    out += fmt::format("  registers a thread: not known ({})\n", l.registersWhy);
  for (const TargetView& v : r.targets) {
    const Occupancy& o = v.occupancy;
    const char* sm = v.target.vendor == "MetaX" ? "CU" : "SM";
    const char* warps = v.target.vendor == "MetaX" ? "waves" : "warps";
    out += fmt::format("\non {}: {} block{} per {}, {} of {} {} ({:.0f}% occupancy), limited by {}\n", v.target.name,
                       o.blocksPerSm, o.blocksPerSm == 1 ? "" : "s", sm, o.activeWarps, o.maxWarps, warps, 100 * o.occupancy,
                       o.limiting.empty() ? "nothing" : fmt::format("{}", fmt::join(o.limiting, " and ")));
    for (const ResourceLimit& lim : o.limits) out += fmt::format("    {}: {} blocks ({})\n", lim.resource, lim.blocks, lim.detail);
    for (const std::string& n : o.notCounted) out += fmt::format("    not counted: {}\n", n);
    out += fmt::format("    {}\n", o.toRaise);
    for (const std::string& s : v.suggestions) out += fmt::format("    {}\n", s);
    if (v.waves > 0) out += fmt::format("    the grid: {} blocks over {} {}s = {:.2f} waves\n", l.blocks(), v.target.smCount, sm, v.waves);
    for (const std::string& s : v.overLimit) out += fmt::format("    over the limit: {}\n", s);
  }
  if (r.timing) out += "\n" + renderTimingText(*r.timing);
  return out;
}

nlohmann::json profileJson(const ProfileReport& r) {
  const LaunchProfile& l = r.launch;
  nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"command", "profile"}, {"kernel", l.kernel},
                      {"bundle", l.bundle}, {"grid", l.grid}, {"block", l.block}, {"blocks", l.blocks()},
                      {"threads_per_block", l.threadsPerBlock()}, {"global_bytes", l.globalBytes},
                      {"buffers", nlohmann::json::array()}, {"private_bytes_per_thread", l.privateBytes},
                      {"targets", nlohmann::json::array()}};
  for (const LaunchProfile::Buffer& b : l.buffers)
    j["buffers"].push_back({{"name", b.name}, {"type", b.type}, {"shape", b.shape}, {"bytes", b.bytes}, {"output", b.output}});
  nlohmann::json arrays = nlohmann::json::array();
  for (const auto& [name, bytes] : l.staticShared) arrays.push_back({{"name", name}, {"bytes", bytes}});
  j["shared"] = {{"static", arrays}, {"static_bytes", l.staticSharedBytes}, {"dynamic_bytes", l.dynamicShared}};
  if (l.targetDynamicShared >= 0) j["shared"]["target_dynamic_bytes"] = l.targetDynamicShared;
  if (l.registers)
    j["registers"] = {{"per_thread", l.registers->registers}, {"stack_frame_bytes", l.registers->stackFrame},
                      {"spill_store_bytes", l.registers->spillStores}, {"spill_load_bytes", l.registers->spillLoads},
                      {"source", l.registers->source}};
  else
    j["registers"] = {{"unknown", l.registersWhy}};
  for (const TargetView& v : r.targets) {
    const Occupancy& o = v.occupancy;
    nlohmann::json limits = nlohmann::json::array();
    for (const ResourceLimit& lim : o.limits) limits.push_back({{"resource", lim.resource}, {"blocks", lim.blocks}, {"detail", lim.detail}});
    j["targets"].push_back({{"target", v.target.name}, {"warp_size", v.target.warpSize},
                            {"shared_per_block", v.resources.sharedPerBlock},
                            {"registers_per_thread", v.resources.registersPerThread > 0 ? nlohmann::json(v.resources.registersPerThread) : nlohmann::json()},
                            {"blocks_per_sm", o.blocksPerSm}, {"warps_per_block", o.warpsPerBlock},
                            {"active_warps", o.activeWarps}, {"max_warps", o.maxWarps}, {"occupancy", o.occupancy},
                            {"limits", limits}, {"limiting", o.limiting}, {"not_counted", o.notCounted},
                            {"to_raise", o.toRaise}, {"suggestions", v.suggestions}, {"waves", v.waves},
                            {"over_limit", v.overLimit}});
  }
  if (r.timing) j["timing"] = timingJson(*r.timing);
  j["exit_code"] = 0;
  return j;
}

}  // namespace td
