#include "driver/script_capture.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/input_error.h"
#include "frontend/paths.h"

namespace fs = std::filesystem;

namespace td {

std::string capturePython() {
  if (const char* env = std::getenv("TILE_DOCTOR_PYTHON"); env && *env) return env;
  // scripts/setup-tilelang.sh's environment, beside the sources the executable was built from
  fs::path venv = fs::path(TD_SOURCE_DIR) / ".venv-tilelang" / "bin" / "python";
  if (fs::exists(venv)) return venv.string();
  return "python3";
}

namespace {

std::string makeTempDir() {
  std::string templ = (fs::temp_directory_path() / "tile-doctor-capture-XXXXXX").string();
  if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary folder for the capture");
  return templ;
}

// Runs the capture module; the script's own output goes to the terminal as usual.
int runCaptureModule(const CaptureRequest& req, const std::string& dir) {
  std::vector<std::string> argv = {capturePython(), "-m", "tile_doctor_capture", "--out", dir, "--arch", req.arch};
  for (auto& [k, v] : req.params) argv.push_back("--param=" + k + "=" + v);
  argv.push_back(req.script);
  for (auto& a : req.scriptArgs) argv.push_back(a);
  std::string pythonPath = dataDir("python", "TILE_DOCTOR_PYTHONPATH");
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pythonPath += std::string(":") + old;

  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    setenv("PYTHONPATH", pythonPath.c_str(), 1);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// "path/kernel.py:31" -> 31, else 0.
int lineOf(const std::string& where) {
  std::smatch m;
  static const std::regex re(R"(:(\d+)$)");
  return std::regex_search(where, m, re) ? std::stoi(m[1]) : 0;
}

}  // namespace

CaptureResult captureScript(const CaptureRequest& req) {
  if (!fs::exists(req.script)) throw InputError(req.script, 0, "no such script");
  CaptureResult res;
  res.temporary = req.keepDir.empty();
  res.dir = res.temporary ? makeTempDir() : req.keepDir;
  if (!res.temporary) {
    std::error_code ec;
    fs::create_directories(res.dir, ec);
    if (ec) throw InputError(res.dir, 0, "cannot create the --keep folder: " + ec.message());
  }
  int rc = runCaptureModule(req, res.dir);
  std::ifstream in(fs::path(res.dir) / "capture.json");
  if (!in) {
    if (rc == 127)
      throw InputError(req.script, 0, fmt::format("cannot run {} (set TILE_DOCTOR_PYTHON to the interpreter of an "
                                                  "environment with TileLang; scripts/setup-tilelang.sh makes one)",
                                                  capturePython()));
    throw InputError(req.script, 0, fmt::format("the TileLang capture ended without a result ({} exited with {})",
                                                capturePython(), rc));
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("unreadable capture.json: ") + e.what());
  }
  if (j["error"].is_string()) {
    std::string err = j["error"];
    std::string where = j.value("error_where", std::string());
    throw InputError(req.script, lineOf(where),
                     err.find("cannot load TileLang") == 0
                         ? err + " (set TILE_DOCTOR_PYTHON to an interpreter with TileLang; scripts/setup-tilelang.sh)"
                         : err);
  }
  if (j["tilelang_version"].is_string()) res.tilelangVersion = j["tilelang_version"];
  if (j["stopped"].is_object()) {
    res.stoppedWhere = j["stopped"]["where"];
    res.stoppedWhy = j["stopped"]["why"];
  }
  for (auto& k : j["kernels"]) {
    CapturedKernel c{k["bundle"], k["entry"], k["from"], {}};
    for (auto& u : k["unresolved"]) c.unresolved.push_back(u);
    res.kernels.push_back(std::move(c));
  }
  if (res.kernels.empty()) {
    if (!res.stoppedWhere.empty() || !res.stoppedWhy.empty())
      throw InputError(res.stoppedWhere.empty() ? req.script : res.stoppedWhere, 0,
                       "no TileLang kernel was captured: the script stopped here (" + res.stoppedWhy +
                           ") before compiling one. tile-doctor captures the kernels a script compiles "
                           "(tilelang.compile, @tilelang.jit) before it first needs a GPU; see docs/guide-tilelang.md");
    throw InputError(req.script, 0,
                     "the script ran to its end without compiling a TileLang kernel (tilelang.compile or a "
                     "@tilelang.jit function called with its shape arguments); see docs/guide-tilelang.md");
  }
  for (const CapturedKernel& k : res.kernels)
    if (!k.unresolved.empty()) {
      std::string names;
      for (auto& u : k.unresolved) names += (names.empty() ? "" : ", ") + u;
      throw InputError(k.from, 0, fmt::format("kernel {} has symbolic dimensions without a value ({}); give each "
                                              "with --param NAME=VALUE", k.entry, names));
    }
  return res;
}

}  // namespace td
