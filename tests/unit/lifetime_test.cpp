// Killing tile-doctor mid-run leaves no process and no temporary file behind: SIGTERM and SIGINT clean up
// and end the tool with that signal; after SIGKILL its children die with it (PR_SET_PDEATHSIG), and the
// temporary folder it could not remove is removed by the next run.
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <fstream>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "test_support.h"

using namespace td::test;
namespace fs = std::filesystem;

extern char** environ;

namespace {

// Processes whose command line mentions `marker` (the tool and the children it forked or ran).
int processesMentioning(const std::string& marker) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    int fd = ::open((e.path() / "cmdline").c_str(), O_RDONLY);  // the process may be gone by now
    if (fd < 0) continue;
    std::string cmd;
    char buf[4096];
    for (ssize_t got; (got = ::read(fd, buf, sizeof buf)) > 0;) cmd.append(buf, static_cast<size_t>(got));
    ::close(fd);
    if (cmd.find(marker) != std::string::npos) ++n;
  }
  return n;
}

bool waitFor(const std::function<bool()>& done, double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

pid_t spawnTool(const std::vector<std::string>& args) {
  std::vector<std::string> all = {TD_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  EXPECT_EQ(posix_spawn(&pid, TD_BINARY, &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

class Lifetime : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("td_lifetime_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    fs::copy(fs::path(bundle("hang")).parent_path(), dir_ / "hang");  // a path only this test's processes name
  }
  void TearDown() override { fs::remove_all(dir_); }
  // A check of the hanging kernel, running (its executor child spinning) when this returns.
  pid_t startHangingCheck() {
    pid_t pid = spawnTool({"check", (dir_ / "hang" / "bundle.toml").string(), "--timeout", "60", "--out",
                           (dir_ / "report.json").string()});
    EXPECT_TRUE(waitFor([&] { return processesMentioning(dir_.string()) >= 2; }, 30)) << "the executor child started";
    return pid;
  }
  bool leftovers() {
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename() != "hang") return true;
    return false;
  }
  fs::path dir_;
};

}  // namespace

TEST_F(Lifetime, TermAndIntEndTheToolItsChildrenAndItsTemporaries) {
  for (int sig : {SIGTERM, SIGINT}) {
    pid_t pid = startHangingCheck();
    ::kill(pid, sig);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "ended by the signal itself: " << status;
    EXPECT_TRUE(waitFor([&] { return processesMentioning(dir_.string()) == 0; }, 5)) << "no executor child left";
    EXPECT_FALSE(leftovers()) << "no report, no staged report file";
  }
}

// A signal never replaces a complete report: the one an earlier run wrote stays as it was (issue 32).
TEST_F(Lifetime, IntKeepsTheLastCompleteReport) {
  std::ofstream(dir_ / "report.json") << "{\"earlier\": true}\n";
  pid_t pid = startHangingCheck();
  ::kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  std::ifstream in(dir_ / "report.json");
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "{\"earlier\": true}\n");
  fs::remove(dir_ / "report.json");
  EXPECT_FALSE(leftovers()) << "no staged report file";
}

// The executor's child keeps no descriptor of the tool's but standard input, output and error: a kernel
// cannot reach the history database (open in the tool for the whole run) through one (issue 32).
TEST_F(Lifetime, TheExecutorChildHoldsNoDescriptorOfTheTools) {
  pid_t pid = spawnTool({"check", (dir_ / "hang" / "bundle.toml").string(), "--timeout", "60", "--db",
                         (dir_ / "history.sqlite").string()});
  // The executor's child: the tool's child under a seccomp filter (clang's children have none).
  pid_t child = 0;
  EXPECT_TRUE(waitFor([&] {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
      std::ifstream status(e.path() / "status");
      bool mine = false, filtered = false;
      for (std::string line; std::getline(status, line);) {
        if (line.rfind("PPid:", 0) == 0) mine = std::stoi(line.substr(5)) == pid;
        if (line.rfind("Seccomp:", 0) == 0) filtered = std::stoi(line.substr(8)) == 2;
      }
      if (mine && filtered) child = std::stoi(e.path().filename());
    }
    return child != 0;
  }, 60)) << "the executor child started";
  std::vector<std::string> open;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path("/proc") / std::to_string(child) / "fd", ec))
    if (std::stoi(e.path().filename()) > 2) open.push_back(fs::read_symlink(e.path(), ec).string());
  ::kill(pid, SIGTERM);
  waitpid(pid, nullptr, 0);
  EXPECT_TRUE(open.empty()) << open.front();
}

TEST_F(Lifetime, KillLeavesNoChildRunning) {
  pid_t pid = startHangingCheck();
  ::kill(pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(waitFor([&] { return processesMentioning(dir_.string()) == 0; }, 5)) << "the child died with its parent";
}

// A capture folder whose owner no longer exists (a run killed by SIGKILL) goes at the next check.
TEST_F(Lifetime, TheNextRunRemovesAKilledRunsCaptureFolder) {
  pid_t gone = spawnTool({"--version-that-does-not-exist"});
  waitpid(gone, nullptr, 0);  // a pid that no longer runs
  fs::path stale = fs::temp_directory_path() / ("tile-doctor-capture-" + std::to_string(gone) + "-abcdef");
  fs::create_directories(stale / "launch1");
  std::ofstream(stale / "launch1" / "bundle.toml") << "x";
  fs::path mine = fs::temp_directory_path() / ("tile-doctor-capture-" + std::to_string(::getpid()) + "-abcdef");
  fs::create_directories(mine);  // a live process's folder stays
  // Every kind of folder (a bisection's probes, a dump's bundles), and a report staged beside its --out.
  fs::path bisect = fs::temp_directory_path() / ("tile-doctor-bisect-" + std::to_string(gone) + "-0");
  fs::create_directories(bisect / "probe1");
  fs::path staged = dir_ / ("report.json.tile-doctor-" + std::to_string(gone) + ".tmp");
  std::ofstream(staged) << "{\"half\": ";
  fs::path stagedLive = dir_ / ("report.json.tile-doctor-" + std::to_string(::getpid()) + ".tmp");
  std::ofstream(stagedLive) << "{";
  Cli r = runCli("check " + bundle("reduce") + " --out " + (dir_ / "report.json").string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_FALSE(fs::exists(bisect));
  EXPECT_FALSE(fs::exists(staged));
  EXPECT_TRUE(fs::exists(mine));
  EXPECT_TRUE(fs::exists(stagedLive));
  fs::remove_all(mine);
}
