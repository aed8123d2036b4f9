// The family list: every check family tile-doctor knows, in the order they instrument a module and their
// device sources are included. Adding a family: its folder under checks/, one line here.
#include "model/family.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace td {

Family boundsFamily();
Family initFamily();
Family launchFamily();
Family raceFamily();
Family syncFamily();
Family numericsFamily();

namespace {

std::vector<Family>& registry() {
  static std::vector<Family> list = {raceFamily(), initFamily(), syncFamily(), numericsFamily(), boundsFamily(), launchFamily()};
  return list;
}

bool sameRegion(const td_region& a, const td_region& b) {
  return a.scope == b.scope && a.flags == b.flags && a.fixed_bytes == b.fixed_bytes &&
         a.bytes_per_word == b.bytes_per_word && a.bytes_per_site == b.bytes_per_site && a.slot == b.slot;
}

}  // namespace

struct EmbeddedFile {
  const char* path;
  const char* text;
};
extern const EmbeddedFile kEmbeddedDeviceFiles[];
extern const size_t kEmbeddedDeviceFileCount;

const std::vector<Family>& families() { return registry(); }

std::string familyNames() {
  std::set<std::string> sorted;
  for (const Family& f : registry()) sorted.insert(f.name);
  std::string names;
  for (const std::string& n : sorted) names += (names.empty() ? "" : ", ") + n;
  return names;
}

const Family* findFamily(const std::string& name) {
  for (const Family& f : registry())
    if (f.name == name) return &f;
  return nullptr;
}

const Family* familyOfRecordKind(unsigned kind) {
  for (const Family& f : registry())
    if (std::find(f.recordKinds.begin(), f.recordKinds.end(), kind) != f.recordKinds.end()) return &f;
  return nullptr;
}

void registerFamily(Family f) {
  if (findFamily(f.name)) throw std::logic_error("check family '" + f.name + "' is registered twice");
  for (const auto& [id, r] : f.regions)
    for (const Family& other : registry())
      for (const auto& [otherId, o] : other.regions)
        if (id == otherId && !sameRegion(r, o))
          throw std::logic_error("check family '" + f.name + "' declares region " + std::to_string(id) +
                                 " unlike family '" + other.name + "' (model/regions.h numbers them)");
  registry().push_back(std::move(f));
}

void unregisterFamily(const std::string& name) {
  auto& list = registry();
  list.erase(std::remove_if(list.begin(), list.end(), [&](const Family& f) { return f.name == name; }), list.end());
}

td_region regionOf(unsigned scope, unsigned flags, unsigned fixedBytes, unsigned bytesPerWord, unsigned bytesPerSite,
                   unsigned slot, unsigned wordShift) {
  td_region r{};
  r.scope = scope;
  r.flags = flags | TD_REGION_PRESENT;
  r.fixed_bytes = fixedBytes;
  r.bytes_per_word = bytesPerWord;
  r.bytes_per_site = bytesPerSite;
  r.slot = slot;
  r.word_shift = wordShift;
  return r;
}

std::vector<td_region> regionTable(const std::set<std::string>& enabled) {
  std::vector<td_region> table(TD_MAX_REGIONS, td_region{});
  for (const std::string& name : enabled)
    if (const Family* f = findFamily(name))
      for (const auto& [id, r] : f->regions) {
        if (id >= TD_MAX_REGIONS) throw std::logic_error("family '" + name + "' uses a region id past TD_MAX_REGIONS");
        table[id] = r;
      }
  return table;
}

std::vector<DeviceFile> deviceRuntimeFiles() {
  std::vector<DeviceFile> files;
  for (size_t i = 0; i < kEmbeddedDeviceFileCount; ++i) {
    std::string path = kEmbeddedDeviceFiles[i].path;
    const std::string core = "runtime/device/";
    if (path.rfind(core, 0) == 0) path = path.substr(core.size());  // td_core.cuh sits beside td_abi.h
    files.push_back({path, kEmbeddedDeviceFiles[i].text});
  }
  for (const Family& f : registry())
    for (const DeviceFile& d : f.deviceFiles) files.push_back(d);
  return files;
}

std::string deviceRuntimeSource() {
  std::string tu = "#include \"td_core.cuh\"\n";
  std::vector<std::string> seen;
  for (const Family& f : registry())
    for (const std::string& s : f.deviceSources)
      if (std::find(seen.begin(), seen.end(), s) == seen.end()) {
        seen.push_back(s);
        tu += "#include \"" + s + "\"\n";
      }
  return tu;
}

}  // namespace td
