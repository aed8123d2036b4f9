#include "frontend/build_flags.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

namespace td {

namespace {

namespace fs = std::filesystem;

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// A folder named relative to the bundle (or absolute) that stays inside it, symbolic links followed.
bool insideBundle(const std::string& path, const std::string& bundleDir) {
  std::error_code ec;
  fs::path root = fs::weakly_canonical(fs::absolute(bundleDir), ec);
  fs::path p = fs::path(path).is_absolute() ? fs::path(path) : fs::path(bundleDir) / path;
  fs::path target = fs::weakly_canonical(p, ec);
  if (ec) return false;
  auto [r, t] = std::mismatch(root.begin(), root.end(), target.begin(), target.end());
  return r == root.end();
}

// A header `-include` names: a name the include path resolves (no absolute path, no `..`), or a file inside
// the bundle.
bool includableHeader(const std::string& name, const std::string& bundleDir) {
  if (name.empty()) return false;
  fs::path p(name);
  if (!p.is_absolute()) {
    bool climbs = false;
    for (const fs::path& part : p) climbs |= part == "..";
    if (!climbs) return true;
  }
  return insideBundle(name, bundleDir);
}

const std::string kAllowed =
    "a manifest's flags may be -D, -U, -I inside the bundle, -std=, -O, -W warnings and -include of a header — "
    "nothing that loads code or writes files";

}  // namespace

BuildFlags bundleBuildFlags(const std::vector<std::string>& flags, const std::string& bundleDir) {
  BuildFlags out;
  std::error_code ec;
  auto inBundle = [&](const std::string& p) { return (fs::path(bundleDir) / p).lexically_normal().string(); };
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string& f = flags[i];
    auto refuse = [&](const std::string& why) {
      out.refused = RefusedFlag{i, fmt::format("flag '{}' {}: {}", f, why, kAllowed)};
      return out;
    };
    // Options with a value, joined (-DX, -Iinc) or in the next entry (-D X, -include h.h).
    std::string option;
    for (const char* o : {"-include", "-D", "-U", "-I"})
      if (startsWith(f, o)) {
        option = o;
        break;
      }
    if (option.empty()) {
      bool optimise = f == "-O" || (f.size() == 3 && startsWith(f, "-O") && std::string("0123sz").find(f[2]) != std::string::npos);
      bool warning = f == "-w" || (startsWith(f, "-W") && !startsWith(f, "-Wl,") && !startsWith(f, "-Wa,") && !startsWith(f, "-Wp,"));
      if (!startsWith(f, "-std=") && !optimise && !warning) return refuse("is not one a manifest may pass to clang");
      out.flags.push_back(f);
      continue;
    }
    bool separate = f == option;
    if (separate && i + 1 == flags.size()) return refuse(option == "-I" ? "needs a folder" : option == "-include" ? "needs a header" : "needs a macro name");
    std::string value = separate ? flags[i + 1] : f.substr(option.size());
    bool relative = !fs::path(value).is_absolute();
    if (option == "-I") {
      if (!insideBundle(value, bundleDir))
        return refuse(fmt::format("names '{}', outside the bundle's folder (give folders outside it in `include`)", value));
      if (relative) value = inBundle(value);
    } else if (option == "-include") {
      if (!includableHeader(value, bundleDir))
        return refuse("may include a header by name or a file inside the bundle, not a path outside it");
      if (relative && fs::exists(inBundle(value), ec)) value = inBundle(value);
    }
    if (separate) out.flags.insert(out.flags.end(), {option, value});
    else out.flags.push_back(option + value);
    if (separate) ++i;
  }
  return out;
}

}  // namespace td
