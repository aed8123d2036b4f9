// The CPU executor child's seccomp filter: what a kernel process may still do, and what it may not.
#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "runtime/cpu/sandbox.h"
#include "test_support.h"

using namespace td::cpu;
using namespace td::test;
namespace fs = std::filesystem;

namespace {

int* gRefused = nullptr;  // shared with the child

void remember(int nr) { *gRefused = nr; }

// Runs `body` in a sandboxed child: its exit status, and the system call refused (-1: none).
std::pair<int, int> inSandbox(const std::function<int()>& body) {
  gRefused = static_cast<int*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  *gRefused = -1;
  pid_t pid = fork();
  if (pid == 0) {
    std::string why;
    if (!enterSandbox(remember, why)) _exit(90);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  int refused = *gRefused;
  munmap(gRefused, 4096);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status), refused};
}

}  // namespace

TEST(Sandbox, TheExecutorsOwnWorkStillRuns) {
  auto [code, refused] = inSandbox([] {
    std::vector<int> big(1 << 22, 1);  // memory
    int sum = 0;
    std::thread t([&] { sum = big[7] + 1; });  // a worker thread
    t.join();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const char line[] = "";
    if (::write(2, line, 0) != 0) return 3;  // device printf's stream
    return sum == 2 ? 0 : 4;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(refused, -1);
}

// Many worker threads (more than 8 malloc arenas: glibc then counts CPUs through /sys) still run.
TEST(Sandbox, SixteenWorkersAllocatingRunInside) {
  auto [code, refused] = inSandbox([] {
    std::vector<std::thread> pool;
    std::atomic<int> done{0};
    for (int i = 0; i < 16; ++i)
      pool.emplace_back([&] {
        std::vector<std::vector<char>> blocks;
        for (int k = 0; k < 100; ++k) blocks.emplace_back(4096 + k);
        ++done;
      });
    for (auto& t : pool) t.join();
    return done == 16 ? 0 : 1;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(refused, -1) << syscallName(refused);
  Cli r = runCli("check " + example("gemm") + " --jobs 16");  // the executor's own pool of 16
  EXPECT_EQ(r.code, 0) << r.output;
}

TEST(Sandbox, OpenForkExecAndRawSyscallsAreRefusedBeforeTheyHappen) {
  fs::path marker = fs::temp_directory_path() / ("td_sandbox_" + std::to_string(::getpid()));
  std::string m = marker.string();
  struct Case { const char* what; std::function<int()> body; long nr; };
  std::vector<Case> cases = {
      {"fork", [] { return ::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0) >= 0 ? 0 : 1; }, SYS_clone},
      {"execve", [] {
         char* argv[] = {const_cast<char*>("/bin/true"), nullptr};
         return ::execve("/bin/true", argv, nullptr);
       }, SYS_execve},
      {"raw syscall", [&] { return static_cast<int>(::syscall(SYS_unlink, m.c_str())); }, SYS_unlink},
      {"write to a file descriptor of its own", [] { return ::write(5, "x", 1) >= 0 ? 0 : 1; }, SYS_write},
      {"kill another process", [] { return ::kill(1, SIGKILL); }, SYS_kill},
  };
  for (const Case& c : cases) {
    auto [code, refused] = inSandbox(c.body);
    EXPECT_EQ(code, 5) << c.what << ": the child ends at the refused call";
    EXPECT_EQ(refused, c.nr) << c.what << " (" << syscallName(refused) << ")";
    EXPECT_FALSE(fs::exists(marker)) << c.what;
  }
  // Opening a file fails (EACCES) without a trap: glibc itself opens /proc and /sys files and copes.
  auto [code, refused] = inSandbox([&] { return ::open(m.c_str(), O_CREAT | O_WRONLY, 0644) < 0 && errno == EACCES ? 7 : 0; });
  EXPECT_EQ(code, 7) << "open failed with EACCES";
  EXPECT_EQ(refused, -1);
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_EQ(syscallName(SYS_openat), "openat");
}
