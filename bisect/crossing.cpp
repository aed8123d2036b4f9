#include "bisect/crossing.h"

#include <algorithm>
#include <fmt/format.h>
#include <regex>

#include "frontend/input_error.h"
#include "frontend/manifest.h"
#include "frontend/profile.h"

namespace td::bisect {

namespace {

int64_t product(const std::array<int64_t, 3>& v) { return v[0] * v[1] * v[2]; }

int64_t elements(const std::vector<int64_t>& dims) {
  double p = 1;
  for (int64_t d : dims) p *= double(d);
  return p > 9e18 ? INT64_MAX : static_cast<int64_t>(p);
}

void launchFromReport(LaunchFacts& f, const nlohmann::json& r) {
  if (!r.is_object() || !r.contains("launch")) return;
  const nlohmann::json& l = r["launch"];
  for (int i = 0; i < 3; ++i) {
    f.grid[i] = l["grid"][i].get<int64_t>();
    f.block[i] = l["block"][i].get<int64_t>();
  }
  // The target's own lowering's dynamic shared memory where the source is a stand-in: what the limit checks.
  f.sharedBytes = l.value("target_dynamic_shared_bytes", l.value("dynamic_shared_bytes", int64_t(0))) +
                  l.value("static_shared_bytes", int64_t(0));
  f.target = r.value("target", std::string());
  f.kernel = r.value("kernel", std::string());
  f.known = true;
}

// torch's dtype names as the capture describes tensors ("float16[128, 64]").
int64_t torchElementBytes(const std::string& dtype) {
  static const std::vector<std::pair<std::string, int64_t>> sizes = {
      {"float64", 8}, {"int64", 8}, {"uint64", 8}, {"float32", 4}, {"int32", 4}, {"uint32", 4}, {"float16", 2},
      {"bfloat16", 2}, {"int16", 2}, {"uint16", 2}, {"int8", 1}, {"uint8", 1}, {"bool", 1}, {"float8", 1}};
  for (const auto& [name, bytes] : sizes)
    if (dtype.rfind(name, 0) == 0) return bytes;
  return 0;
}

std::string bytesText(int64_t v) { return fmt::format("{} bytes", v); }

// 2^31 or 2^32 lying in (pass, fail]: a 32-bit index that fits on one side and wraps on the other.
const char* powerCrossed(int64_t pass, int64_t fail) {
  for (auto [bound, name] : {std::pair<int64_t, const char*>{int64_t(1) << 31, "2^31"}, {int64_t(1) << 32, "2^32"}})
    if (pass < bound && fail >= bound) return name;
  return nullptr;
}

}  // namespace

LaunchFacts bundleFacts(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& overrides,
                        const nlohmann::json& report) {
  LaunchFacts f;
  launchFromReport(f, report);
  if (!f.known) return f;
  try {
    Bundle b = loadBundle(manifest, overrides);
    for (const ArgSpec& a : b.args) {
      if (a.isBuffer) f.buffers.push_back({a.name, a.shape, static_cast<int64_t>(a.byteSize() / std::max<uint64_t>(a.elementCount(), 1))});
      else if (!isFloat(a.type))
        f.integers.push_back({a.name, a.intValue});
    }
  } catch (const InputError&) {  // the manifest changed since the probe: the launch alone is compared
  }
  return f;
}

LaunchFacts scriptLaunchFacts(const nlohmann::json& item) {
  LaunchFacts f;
  if (item.contains("report")) launchFromReport(f, item["report"]);
  if (!f.known) return f;
  static const std::regex tensor(R"(^([a-z0-9_]+)\[([0-9, ]*)\]$)");
  const nlohmann::json shapes = item.value("shapes", nlohmann::json::object());  // items() needs it alive
  for (auto& [name, desc] : shapes.items()) {
    if (!desc.is_string()) continue;
    std::string d = desc.get<std::string>();
    std::smatch m;
    if (std::regex_match(d, m, tensor)) {
      LaunchFacts::Buffer b{name, {}, torchElementBytes(m[1])};
      std::string dims = m[2];
      for (size_t at = 0; at < dims.size();) {
        size_t comma = dims.find(',', at);
        std::string one = dims.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (one.find_first_not_of(' ') != std::string::npos) b.dims.push_back(std::stoll(one));
        at = comma == std::string::npos ? dims.size() : comma + 1;
      }
      f.buffers.push_back(b);
    } else if (std::regex_match(d, std::regex(R"(-?[0-9]+)"))) {
      f.integers.push_back({name, std::stoll(d)});
    }
  }
  const nlohmann::json scalars = item.value("scalars", nlohmann::json::object());
  for (auto& [name, value] : scalars.items())
    if (value.is_string() && std::regex_match(value.get<std::string>(), std::regex(R"(-?[0-9]+)")))
      f.integers.push_back({name, std::stoll(value.get<std::string>())});
  return f;
}

std::vector<Change> whatChanged(const LaunchFacts& pass, const LaunchFacts& fail,
                                const std::vector<std::tuple<std::string, int64_t, int64_t>>& axisValues) {
  std::vector<Change> out;
  if (!pass.known || !fail.known) return out;
  std::optional<Profile> profile;
  try {
    if (!fail.target.empty()) profile = loadProfile(fail.target);
  } catch (const InputError&) {
  }
  auto limitText = [&](int64_t before, int64_t after, int64_t limit, const char* unit) {
    std::string s = fmt::format("{} -> {} {}", before, after, unit);
    if (limit > 0)
      s += fmt::format(" ({} allows {}{})", fail.target, limit,
                       before <= limit && after > limit ? ": crossed here" : after > limit ? ": over on both sides" : "");
    return s;
  };
  if (pass.sharedBytes != fail.sharedBytes) {
    int64_t limit = profile ? profile->sharedPerBlock : 0;
    out.push_back({"shared memory per block", limitText(pass.sharedBytes, fail.sharedBytes, limit, "bytes"),
                   limit > 0 && pass.sharedBytes <= limit && fail.sharedBytes > limit});
  }
  if (product(pass.block) != product(fail.block)) {
    int64_t limit = profile ? profile->threadsPerBlock : 0;
    out.push_back({"threads per block", limitText(product(pass.block), product(fail.block), limit, "threads"),
                   limit > 0 && product(pass.block) <= limit && product(fail.block) > limit});
  }
  if (pass.grid != fail.grid)
    out.push_back({"grid", fmt::format("({}, {}, {}) -> ({}, {}, {}) blocks", pass.grid[0], pass.grid[1], pass.grid[2],
                                       fail.grid[0], fail.grid[1], fail.grid[2])});
  for (const LaunchFacts::Buffer& b : fail.buffers)
    for (const LaunchFacts::Buffer& a : pass.buffers)
      if (a.name == b.name && a.dims != b.dims) {
        int64_t before = elements(a.dims) * std::max<int64_t>(a.elementBytes, 1);
        int64_t after = elements(b.dims) * std::max<int64_t>(b.elementBytes, 1);
        out.push_back({"buffer " + b.name, fmt::format("{} -> {} elements, {}", elements(a.dims), elements(b.dims),
                                                       b.elementBytes ? bytesText(after) : "")});
        if (const char* p = powerCrossed(elements(a.dims), elements(b.dims)))
          out.push_back({"index", fmt::format("{} elements of {} pass {}: a 32-bit element index wraps", elements(b.dims), b.name, p), true});
        else if (const char* q = powerCrossed(before, after))
          out.push_back({"index", fmt::format("{} bytes of {} pass {}: a 32-bit byte offset wraps", after, b.name, q), true});
      }
  int64_t threadsPass = product(pass.grid) * product(pass.block), threadsFail = product(fail.grid) * product(fail.block);
  if (const char* p = powerCrossed(threadsPass, threadsFail))
    out.push_back({"index", fmt::format("{} threads in the grid pass {}: a 32-bit global thread index wraps", threadsFail, p), true});
  // A 16-bit counter or index (a short loop variable, a half-word offset) stops holding the value.
  for (const auto& [axis, pv, fv] : axisValues)
    for (auto [bound, name] : {std::pair<int64_t, const char*>{int64_t(1) << 15, "2^15"}, {int64_t(1) << 16, "2^16"}})
      if (pv < bound && fv >= bound)
        out.push_back({"index", fmt::format("{} = {} reaches {}: a 16-bit counter or index no longer holds it", axis, fv, name), true});
  // An axis's largest index (value - 1) or the value itself times one of the launch's integers: the
  // product a kernel forms for an offset (row * ld, i * stride, b * M * N).
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> factors;
  for (const auto& [name, v] : fail.integers)
    for (const auto& [pname, pv] : pass.integers)
      if (pname == name) factors.push_back({name, {pv, v}});
  for (const LaunchFacts::Buffer& b : fail.buffers)
    for (const LaunchFacts::Buffer& a : pass.buffers)
      if (a.name == b.name && a.dims.size() == b.dims.size())
        for (size_t d = 0; d < b.dims.size(); ++d)
          factors.push_back({fmt::format("{}.shape[{}]", b.name, d), {a.dims[d], b.dims[d]}});
  int reported = 0;
  std::vector<int64_t> seen;  // one line per product: the same number through another name says nothing new
  for (const auto& [axis, pv, fv] : axisValues)
    for (int minus : {1, 0})
      for (const auto& [name, values] : factors) {
        __int128 before = __int128(pv - minus) * values.first, after = __int128(fv - minus) * values.second;
        if (before > INT64_MAX || after > INT64_MAX || reported >= 4) continue;
        if (std::find(seen.begin(), seen.end(), static_cast<int64_t>(after)) != seen.end()) continue;
        if (const char* p = powerCrossed(static_cast<int64_t>(before), static_cast<int64_t>(after))) {
          seen.push_back(static_cast<int64_t>(after));
          out.push_back({"index", fmt::format("{} x {} = {} passes {} (it was {}): a 32-bit product wraps",
                                              minus ? "(" + axis + " - 1)" : axis, name, static_cast<int64_t>(after), p,
                                              static_cast<int64_t>(before)), true});
          ++reported;
        }
      }
  return out;
}

}  // namespace td::bisect
