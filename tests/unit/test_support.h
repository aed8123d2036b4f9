// Helpers for the end-to-end tests: run a bundle through the library, read its buffers, run the CLI.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <string>
#include <vector>

#include "driver/check.h"
#include "frontend/elem_type.h"
#include "frontend/profile.h"

namespace td::test {

inline std::string bundle(const std::string& name) { return std::string(TD_TESTS_DIR) + "/bundles/" + name + "/bundle.toml"; }
// Another manifest of a test bundle's folder: bundleFile("numerics", "softmax_naive") is numerics/softmax_naive.toml.
inline std::string bundleFile(const std::string& folder, const std::string& manifest) {
  return std::string(TD_TESTS_DIR) + "/bundles/" + folder + "/" + manifest + ".toml";
}
// The H100's occupancy figures, as the occupancy and register-cap tests count blocks with them.
inline const Profile& h100() {
  static const Profile p = loadProfile("nvidia-h100");
  return p;
}
inline std::string example(const std::string& name) { return std::string(TD_EXAMPLES_DIR) + "/" + name + "/bundle.toml"; }
inline std::string exampleFile(const std::string& folder, const std::string& manifest) {
  return std::string(TD_EXAMPLES_DIR) + "/" + folder + "/" + manifest + ".toml";
}

inline CheckResult check(const std::string& path, const std::string& target = "nvidia-h200",
                         std::vector<std::pair<std::string, std::string>> params = {}, double timeout = 30) {
  CheckRequest r;
  r.bundlePath = path;
  r.target = target;
  r.params = std::move(params);
  r.launch.jobs = 2;
  r.launch.timeoutSeconds = timeout;
  return runCheck(r);
}

// The same with the families `checks` names (--checks).
inline CheckResult checkWith(const std::string& path, const std::string& checks) {
  CheckRequest r;
  r.bundlePath = path;
  r.target = "nvidia-h200";
  r.checks = checks;
  r.launch.jobs = 2;
  r.launch.timeoutSeconds = 30;
  return runCheck(r);
}

// A buffer argument's elements as doubles.
inline std::vector<double> values(const CheckResult& r, const std::string& name) {
  for (const ArgValue& a : r.args)
    if (a.spec->name == name) {
      std::vector<double> v(a.spec->elementCount());
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = loadElemAt(a.spec->type, a.data, i);
      return v;
    }
  return {};
}

inline const Finding* find(const CheckResult& r, const std::string& kind, unsigned line = 0) {
  for (const Finding& f : r.report.findings)
    if (f.kind == kind && (line == 0 || f.loc.line == line)) return &f;
  return nullptr;
}

struct Cli {
  int code;
  std::string output;
};

// `env`: "NAME=VALUE ..." set for this run only.
inline Cli runCli(const std::string& args, const std::string& env = "") {
  std::string cmd = (env.empty() ? "" : "env " + env + " ") + std::string(TD_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WEXITSTATUS(status), out};
}

// A cache folder of the test's own ($TILE_DOCTOR_CACHE) for its lifetime; entries() counts a kind of entry.
struct CacheFolder {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("td-cache-test-" + std::to_string(::getpid()));
  std::string old;
  CacheFolder() {
    if (const char* v = std::getenv("TILE_DOCTOR_CACHE")) old = v;
    setenv("TILE_DOCTOR_CACHE", dir.c_str(), 1);
  }
  ~CacheFolder() {
    if (old.empty()) unsetenv("TILE_DOCTOR_CACHE");
    else setenv("TILE_DOCTOR_CACHE", old.c_str(), 1);
    std::filesystem::remove_all(dir);
  }
  size_t entries(const char* folder = "modules", const char* ext = ".bc") const {
    size_t n = 0;
    if (std::filesystem::is_directory(dir / folder))
      for (auto& e : std::filesystem::directory_iterator(dir / folder)) n += e.path().extension() == ext;
    return n;
  }
};

}  // namespace td::test
