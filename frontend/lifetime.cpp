#include "frontend/lifetime.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <pthread.h>
#include <set>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace td {

namespace {

std::atomic<bool> gTerminating{false};
std::mutex gMutex;
std::set<pid_t> gChildren;
std::set<std::string> gTemporaries;

sigset_t terminationSignals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGHUP);
  return s;
}

[[noreturn]] void cleanUpAndDie(int sig) {
  gTerminating.store(true);
  {
    std::lock_guard<std::mutex> lock(gMutex);
    for (pid_t p : gChildren) ::kill(p, SIGKILL);
    for (pid_t p : gChildren) ::waitpid(p, nullptr, 0);
    std::error_code ec;
    for (const std::string& t : gTemporaries) fs::remove_all(t, ec);
  }
  // End as the signal would have: the shell and CI see "terminated by SIGTERM", not an exit code.
  ::signal(sig, SIG_DFL);
  sigset_t s = terminationSignals();
  pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
  ::raise(sig);
  _exit(128 + sig);
}

}  // namespace

void installTerminationHandling() {
  sigset_t s = terminationSignals();
  pthread_sigmask(SIG_BLOCK, &s, nullptr);  // inherited by every thread started from here on
  std::thread([s] {
    for (;;) {
      int sig = 0;
      if (sigwait(&s, &sig) == 0) cleanUpAndDie(sig);
    }
  }).detach();
}

void holdIfTerminating() {
  while (gTerminating.load()) ::pause();  // the cleaning thread ends the process with the signal
}

pid_t forkChildOfTool() {
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) _exit(1);  // the parent died before the request took
    sigset_t s = terminationSignals();
    pthread_sigmask(SIG_UNBLOCK, &s, nullptr);
  } else if (pid > 0) {
    std::lock_guard<std::mutex> lock(gMutex);
    gChildren.insert(pid);
  }
  return pid;
}

pid_t spawnChildOfTool(const std::vector<std::string>& argv, const std::string& logPath, bool ownGroup) {
  pid_t pid = forkChildOfTool();
  if (pid != 0) return pid;
  if (ownGroup) setpgid(0, 0);
  int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int null = ::open("/dev/null", O_RDONLY);
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
  }
  if (null >= 0) dup2(null, STDIN_FILENO);
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  execv(cargv[0], cargv.data());
  _exit(127);
}

void releaseChild(pid_t pid) {
  std::lock_guard<std::mutex> lock(gMutex);
  gChildren.erase(pid);
}

void adoptTemporary(const std::string& path) {
  std::lock_guard<std::mutex> lock(gMutex);
  gTemporaries.insert(path);
}

void releaseTemporary(const std::string& path) {
  std::lock_guard<std::mutex> lock(gMutex);
  gTemporaries.erase(path);
}

std::string temporaryPrefix(const std::string& what) {
  return "tile-doctor-" + what + "-" + std::to_string(::getpid()) + "-";
}

TemporaryFolder::TemporaryFolder(const std::string& what) {
  static std::atomic<int> next{0};
  path_ = (fs::temp_directory_path() / (temporaryPrefix(what) + std::to_string(next++))).string();
  std::error_code ec;
  fs::remove_all(path_, ec);
  fs::create_directories(path_);
  adoptTemporary(path_);
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ec;
  fs::remove_all(path_, ec);
  releaseTemporary(path_);
}

namespace {

// The pid in NAME at `from`, up to `end`; 0 when there is none.
pid_t pidAt(const std::string& name, size_t from, size_t end) {
  if (end == std::string::npos || end <= from || end - from > 10) return 0;
  if (name.find_first_not_of("0123456789", from) < end) return 0;
  return static_cast<pid_t>(std::atol(name.substr(from, end - from).c_str()));
}

bool gone(pid_t owner) { return owner > 0 && owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH; }

}  // namespace

void removeStaleTemporaries() {
  const std::string prefix = "tile-doctor-";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::temp_directory_path(), ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    size_t kindEnd = name.find('-', prefix.size());  // tile-doctor-<kind>-<pid>-...
    if (kindEnd == std::string::npos) continue;
    size_t pidEnd = name.find('-', kindEnd + 1);
    if (gone(pidAt(name, kindEnd + 1, pidEnd))) fs::remove_all(e.path(), ec);
  }
}

std::string stagingPath(const std::string& path) { return path + ".tile-doctor-" + std::to_string(::getpid()) + ".tmp"; }

void removeStaleStaging(const std::string& path) {
  fs::path p(path);
  std::string stem = p.filename().string() + ".tile-doctor-";
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind(stem, 0) != 0 || name.size() < stem.size() + 5 || name.compare(name.size() - 4, 4, ".tmp") != 0)
      continue;
    if (gone(pidAt(name, stem.size(), name.size() - 4)) && e.is_regular_file(ec)) fs::remove(e.path(), ec);
  }
}

bool terminating() { return gTerminating.load(); }

}  // namespace td
