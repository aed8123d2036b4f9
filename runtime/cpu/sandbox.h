// The CPU executor's child runs kernel code under a seccomp filter (libseccomp): it may compute, allocate
// anonymous memory, run its worker threads, wait, write device printf to its standard output or error, and
// end — nothing else; it keeps no descriptor but standard input, output and error. Any other system call
// (open, execve, fork, socket, kill, ptrace, a file's mmap, …) is refused before it happens: the filter
// traps it, `onRefused` gets the call's number and must end the process — except that opening or looking
// up a file fails with EACCES (glibc's malloc reads /proc and /sys files and copes with a refusal; a trap
// there would stop correct kernels). Also: no new privileges (set by the filter) and no core dumps. A
// kernel reaches no system call by its own code (calls to host functions are refused when it compiles);
// this is the wall behind that, for code that gets there anyway (a wild pointer with the access checks
// off, a bug in the executor's emulation).
#pragma once
#include <string>

namespace td::cpu {

using RefusedSyscall = void (*)(int number);

// Installs the filter in the calling process (all of its threads); false, with `why`, when it cannot.
bool enterSandbox(RefusedSyscall onRefused, std::string& why);

// "openat" for a system call number of this machine ("syscall 999" when it has no name).
std::string syscallName(int number);

}  // namespace td::cpu
