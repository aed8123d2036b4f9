#include "driver/script_capture.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/channel_protocol.h"
#include "frontend/compile_cache.h"
#include "frontend/input_error.h"
#include "frontend/read_roots.h"
#include "frontend/lifetime.h"
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

// tile-doctor-capture-PID-XXXXXX: removed on every exit, signals included; after a SIGKILL, by the next
// check (the CLI's removeStaleTemporaries).
std::string makeTempDir() {
  std::string templ = (fs::temp_directory_path() / (temporaryPrefix("capture") + "XXXXXX")).string();
  if (!mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary folder for the capture");
  adoptTemporary(templ);
  return templ;
}

// One pipe end for each direction; closed when the session ends.
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (pipe(fd) != 0) throw std::runtime_error("cannot make a pipe for the script's channel");
  }
  ~Pipe() {
    for (int f : fd)
      if (f >= 0) close(f);
  }
  void closeEnd(int i) {
    if (fd[i] >= 0) close(fd[i]);
    fd[i] = -1;
  }
};

// Answers the script's requests until it closes the channel (ends or dies).
void serveChannel(int readFd, int writeFd, const LaunchHandler& onLaunch) {
  FILE* in = fdopen(readFd, "r");
  if (!in) throw std::runtime_error("cannot read the script's channel");
  char* line = nullptr;
  size_t cap = 0;
  while (getline(&line, &cap, in) > 0) {
    nlohmann::json reply;
    try {
      nlohmann::json request = nlohmann::json::parse(line);
      reply = onLaunch(request);
    } catch (const nlohmann::json::exception& e) {
      reply = channelReply(false, std::string("unreadable request: ") + e.what());
    }
    std::string text = reply.dump() + "\n";
    if (write(writeFd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) break;  // script gone
  }
  free(line);
  fclose(in);  // closes readFd
}

// Runs the capture module; the script's own output goes to the terminal as usual.
int runCaptureModule(const CaptureRequest& req, const std::string& dir, const LaunchHandler& onLaunch) {
  std::vector<std::string> argv = {capturePython(), "-m", "tile_doctor_capture", "--out", dir, "--arch", req.arch,
                                   "--profile", req.profile.is_null() ? "{}" : req.profile.dump(),
                                   "--autotune", req.autotune, "--lowering", req.lowering, "--cache", cacheDir()};
  if (!req.keepDir.empty()) argv.push_back("--kept");
  if (req.seed) argv.push_back("--seed=" + std::to_string(*req.seed));
  if (req.memoryTimeline) argv.push_back("--memory");
  if (req.memoryTimeline && !req.memoryVizPath.empty()) argv.push_back("--memory-viz=" + req.memoryVizPath);
  for (auto& [k, v] : req.params) argv.push_back("--param=" + k + "=" + v);
  argv.push_back("--");  // what follows is the script's: never parsed as the capture's own options
  argv.push_back(req.script);
  for (auto& a : req.scriptArgs) argv.push_back(a);
  std::string pythonPath = dataDir("python", "TILE_DOCTOR_PYTHONPATH");
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pythonPath += std::string(":") + old;

  Pipe toScript, fromScript;
  std::string channel = fmt::format("{},{}", toScript.fd[0], fromScript.fd[1]);
  pid_t pid = forkChildOfTool();  // the script dies with tile-doctor and takes signals as usual
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(toScript.fd[1]);
    close(fromScript.fd[0]);
    setenv("PYTHONPATH", pythonPath.c_str(), 1);
    setenv("TILE_DOCTOR_CHANNEL", channel.c_str(), 1);
    if (req.stdoutToStderr) dup2(STDERR_FILENO, STDOUT_FILENO);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  toScript.closeEnd(0);
  fromScript.closeEnd(1);
  // A script that dies while an answer is on its way must not take tile-doctor with it.
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);
  int readFd = fromScript.fd[0];
  fromScript.fd[0] = -1;  // serveChannel closes it
  try {
    serveChannel(readFd, toScript.fd[1], onLaunch);
  } catch (...) {
    sigaction(SIGPIPE, &old, nullptr);
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    releaseChild(pid);
    throw;
  }
  sigaction(SIGPIPE, &old, nullptr);
  int status = 0;
  waitpid(pid, &status, 0);
  releaseChild(pid);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// Serves a Python process that started this one (`tile-doctor serve`) on the descriptors it handed over.
int serveRunningProcess(const std::string& channel, const LaunchHandler& onLaunch) {
  int readFd = -1, writeFd = -1;
  if (std::sscanf(channel.c_str(), "%d,%d", &readFd, &writeFd) != 2 || readFd < 0 || writeFd < 0 ||
      fcntl(readFd, F_GETFD) < 0 || fcntl(writeFd, F_GETFD) < 0)
    throw InputError("--channel", 0, fmt::format("'{}' is not READ,WRITE: two descriptors this process holds", channel));
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);  // the process may go while an answer is on its way
  try {
    serveChannel(readFd, writeFd, onLaunch);
  } catch (...) {
    sigaction(SIGPIPE, &old, nullptr);
    close(writeFd);
    throw;
  }
  sigaction(SIGPIPE, &old, nullptr);
  close(writeFd);
  return 0;
}

// "path/kernel.py:31" -> 31, else 0.
int lineOf(const std::string& where) {
  std::smatch m;
  static const std::regex re(R"(:(\d+)$)");
  return std::regex_search(where, m, re) ? std::stoi(m[1]) : 0;
}

}  // namespace

CaptureResult captureScript(const CaptureRequest& req, const LaunchHandler& onLaunch) {
  bool served = !req.channel.empty();
  if (!served && !fs::exists(req.script)) throw InputError(req.script, 0, "no such script");
  if (served && req.keepDir.empty()) throw InputError("--capture-dir", 0, "serve needs the Python process's folder");
  CaptureResult res;
  res.temporary = req.keepDir.empty();
  res.dir = res.temporary ? makeTempDir() : req.keepDir;
  if (!res.temporary) {
    std::error_code ec;
    fs::create_directories(res.dir, ec);
    if (ec) throw InputError(res.dir, 0, "cannot create the --keep folder: " + ec.message());
  }
  addIncludeRoot(res.dir);  // the bundles the capture writes there name sources beside them (frontend/read_roots.h)
  int rc = served ? serveRunningProcess(req.channel, onLaunch) : runCaptureModule(req, res.dir, onLaunch);
  std::ifstream in(fs::path(res.dir) / "capture.json");
  if (!in) {
    if (rc == 127)
      throw InputError(req.script, 0, fmt::format("cannot run {} (set TILE_DOCTOR_PYTHON to the interpreter of an "
                                                  "environment with TileLang; scripts/setup-tilelang.sh makes one)",
                                                  capturePython()));
    // The interpreter died before it could write how the script ended (a signal, os._exit): say so.
    res.interrupted = true;
    res.scriptExit = rc;
    res.exitWhy = rc > 128 ? fmt::format("the Python process was killed by signal {}", rc - 128)
                           : fmt::format("the Python process exited with {} before the script ended", rc);
    return res;
  }
  if (req.memoryTimeline) {  // read while the capture folder exists
    std::ifstream memory(fs::path(res.dir) / "memory.json");
    if (memory) res.memory = nlohmann::json::parse(memory, nullptr, false);
    if (res.memory.is_discarded()) res.memory = nullptr;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("unreadable capture.json: ") + e.what());
  }
  long long protocol = j.is_object() && j.contains("protocol") && j["protocol"].is_number_integer() ? j["protocol"].get<long long>() : 0;
  if (protocol != kChannelProtocol)  // a capture of another release (0: one from before versions)
    throw InputError(req.script, 0,
                     fmt::format("the capture ({}) wrote capture.json in channel protocol {}, this tile-doctor reads "
                                 "version {}: install the tile_doctor Python package and the executable from one release",
                                 capturePython(), protocol, kChannelProtocol));
  if (j["error"].is_string()) {
    std::string err = j["error"];
    std::string where = j.value("error_where", std::string());
    throw InputError(req.script, lineOf(where),
                     err.find("cannot load TileLang") == 0
                         ? err + " (set TILE_DOCTOR_PYTHON to an interpreter with TileLang; scripts/setup-tilelang.sh)"
                         : err);
  }
  if (j["tilelang_version"].is_string()) res.tilelangVersion = j["tilelang_version"];
  res.lowering = j.value("lowering", std::string());
  res.hostDevice = j.value("host_device", false);
  if (res.memory.is_object() && j.contains("memory_viz")) res.memory["memory_viz"] = j["memory_viz"];
  if (j["script_exit"].is_object()) {
    res.scriptExit = j["script_exit"].value("code", 0);
    res.exitWhere = j["script_exit"].value("where", std::string());
    res.exitWhy = j["script_exit"].value("why", std::string());
  }
  for (auto& n : j["notes"]) res.notes.push_back({n.value("where", std::string()), n.value("text", std::string())});
  for (auto& k : j["kernels"]) {
    CapturedKernel c{k["bundle"], k["entry"], k["from"], {}, k.value("launched", false)};
    for (auto& u : k["unresolved"]) c.unresolved.push_back(u);
    res.kernels.push_back(std::move(c));
  }
  return res;
}

}  // namespace td
