#include "frontend/build_flags.h"

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

std::optional<std::string> reasonFor(const std::string& f, const std::string* next, bool* usesNext,
                                     const std::string& bundleDir) {
  *usesNext = false;
  auto value = [&](size_t skip) -> std::optional<std::string> {
    if (f.size() > skip) return f.substr(skip);
    if (!next) return std::nullopt;
    *usesNext = true;
    return *next;
  };
  if (startsWith(f, "-D") || startsWith(f, "-U")) {
    if (value(2)) return std::nullopt;
    return "needs a macro name";
  }
  if (startsWith(f, "-I")) {
    std::optional<std::string> dir = value(2);
    if (!dir) return "needs a folder";
    if (insideBundle(*dir, bundleDir)) return std::nullopt;
    return fmt::format("names '{}', outside the bundle's folder (give folders outside it in `include`)", *dir);
  }
  if (f == "-include" || startsWith(f, "-include")) {
    std::optional<std::string> header = value(8);
    if (header && includableHeader(*header, bundleDir)) return std::nullopt;
    return "may include a header by name or a file inside the bundle, not a path outside it";
  }
  if (startsWith(f, "-std=")) return std::nullopt;
  if (f == "-O" || (startsWith(f, "-O") && f.size() == 3 && std::string("0123sz").find(f[2]) != std::string::npos))
    return std::nullopt;
  if (f == "-w" || (startsWith(f, "-W") && !startsWith(f, "-Wl,") && !startsWith(f, "-Wa,") && !startsWith(f, "-Wp,")))
    return std::nullopt;
  return "is not one a manifest may pass to clang";
}

}  // namespace

std::optional<RefusedFlag> refusedBuildFlag(const std::vector<std::string>& flags, const std::string& bundleDir) {
  for (size_t i = 0; i < flags.size(); ++i) {
    bool usesNext = false;
    const std::string* next = i + 1 < flags.size() ? &flags[i + 1] : nullptr;
    if (auto reason = reasonFor(flags[i], next, &usesNext, bundleDir))
      return RefusedFlag{i, fmt::format("flag '{}' {}: a manifest's flags may be -D, -U, -I inside the bundle, -std=, "
                                        "-O, -W warnings and -include of a header — nothing that loads code or "
                                        "writes files", flags[i], *reason)};
    if (usesNext) ++i;
  }
  return std::nullopt;
}

std::vector<std::string> bundleRelativeFlags(const std::vector<std::string>& flags, const std::string& bundleDir) {
  std::vector<std::string> out;
  std::error_code ec;
  auto inBundle = [&](const std::string& p) { return (fs::path(bundleDir) / p).lexically_normal().string(); };
  for (size_t i = 0; i < flags.size(); ++i) {
    const std::string& f = flags[i];
    bool separate = (f == "-I" || f == "-include") && i + 1 < flags.size();
    std::string flag = separate ? f : f.substr(0, startsWith(f, "-include") ? 8 : 2);
    std::string path = separate ? flags[i + 1] : f.substr(flag.size());
    bool relative = !path.empty() && !fs::path(path).is_absolute();
    if (flag == "-I" && relative) {
      out.insert(out.end(), {"-I", inBundle(path)});
    } else if (flag == "-include" && relative && fs::exists(inBundle(path), ec)) {
      out.insert(out.end(), {"-include", inBundle(path)});
    } else {
      out.push_back(f);
      if (separate) out.push_back(flags[i + 1]);
    }
    if (separate) ++i;
  }
  return out;
}

}  // namespace td
