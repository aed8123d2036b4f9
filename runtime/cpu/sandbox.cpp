#include "runtime/cpu/sandbox.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace td::cpu {

namespace {

RefusedSyscall gOnRefused = nullptr;

void onSigsys(int, siginfo_t* info, void*) {
  if (gOnRefused) gOnRefused(info->si_syscall);
  _exit(5);
}

// What the child needs: memory, threads and their synchronisation, time, signals (its fault handlers),
// writing what device printf prints, and ending.
constexpr const char* kAllowed[] = {
    "brk", "munmap", "mprotect", "madvise", "mremap",
    "set_robust_list", "rseq", "futex", "sched_yield", "gettid", "getpid",
    "clock_gettime", "clock_nanosleep", "nanosleep", "gettimeofday", "clock_getres",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
    "exit", "exit_group", "restart_syscall", "getrandom",
    "sysinfo", "sched_getaffinity", "getcpu",  // glibc asks them (qsort, counting CPUs for malloc arenas)
};

}  // namespace

bool enterSandbox(RefusedSyscall onRefused, std::string& why) {
  gOnRefused = onRefused;
  // Every descriptor the child inherited but standard input, output and error: a history database, a
  // report being written, a socket — nothing a kernel's code could reach through a descriptor number.
  if (::syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
    for (int fd = 3; fd < 65536; ++fd) ::close(fd);
  struct sigaction sa {};
  sa.sa_sigaction = onSigsys;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSYS, &sa, nullptr) != 0) {
    why = "cannot handle SIGSYS";
    return false;
  }
  rlimit noCore{0, 0};
  setrlimit(RLIMIT_CORE, &noCore);
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);  // also sets no_new_privs
  if (!ctx) {
    why = "seccomp_init failed";
    return false;
  }
  bool ok = true;
  for (const char* name : kAllowed) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR && seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0) != 0) ok = false;
  }
  // Threads, not processes: clone only with CLONE_THREAD; clone3 (whose flags a filter cannot read) says
  // ENOSYS, and glibc falls back to clone. Signals only to this process's own threads.
  if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)) != 0 ||
      seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) != 0 ||
      seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(getpid()))) != 0)
    ok = false;
  // Opening or looking up a file fails with EACCES instead: glibc's malloc itself reads
  // /sys/devices/system/cpu/online (past 8 arenas) and /proc/sys/vm/overcommit_memory (shrinking a
  // thread's heap) and copes with a refusal; nothing is opened either way.
  for (const char* name : {"open", "openat", "openat2", "creat", "stat", "lstat", "newfstatat", "statx", "access",
                           "faccessat", "faccessat2", "readlink", "readlinkat"}) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR && seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 0) != 0) ok = false;
  }
  // Memory only: an anonymous mapping (fd -1), never a file's — the child keeps no file open, and a mapping
  // of one would let a store write it.
  if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1, SCMP_A4(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, 0xFFFFFFFFu)) != 0)
    ok = false;
  // Writing: standard output and error only (device printf), never a file the kernel opened or guessed.
  for (scmp_datum_t fd : {1u, 2u})
    if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, fd)) != 0) ok = false;
  int rc = ok ? seccomp_load(ctx) : -1;
  seccomp_release(ctx);
  if (rc != 0) {
    why = ok ? std::string("seccomp_load: ") + std::strerror(-rc) : "a seccomp rule was refused";
    return false;
  }
  return true;
}

std::string syscallName(int number) {
  char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
  std::string s = name ? name : "syscall " + std::to_string(number);
  std::free(name);
  return s;
}

}  // namespace td::cpu
