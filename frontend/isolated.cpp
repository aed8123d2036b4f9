#include "frontend/isolated.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <fmt/format.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/input_error.h"
#include "frontend/lifetime.h"

namespace td {

namespace {

// The child's answer: a status byte, then length-prefixed strings.
enum Status : uint8_t { kOk = 0, kInputError = 1, kOtherError = 2 };

void writeAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(3);  // the parent went away
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void writePart(int fd, const std::string& s) {
  uint64_t n = s.size();
  writeAll(fd, &n, sizeof n);
  writeAll(fd, s.data(), s.size());
}

int gAnswerFd = -1;  // in a child: where its answer goes

void writeAnswer(int fd, uint8_t status, const std::vector<std::string>& parts) {
  writeAll(fd, &status, 1);
  uint64_t count = parts.size();
  writeAll(fd, &count, sizeof count);
  for (const std::string& p : parts) writePart(fd, p);
  ::close(fd);
}

[[noreturn]] void childMain(int fd, const std::function<std::vector<std::string>()>& work) {
  gAnswerFd = fd;
  std::vector<std::string> parts;
  uint8_t status = kOk;
  try {
    parts = work();
  } catch (const InputError& e) {
    status = kInputError;
    parts = {e.file, std::to_string(e.line), e.what()};
  } catch (const std::exception& e) {
    status = kOtherError;
    parts = {e.what()};
  }
  writeAnswer(fd, status, parts);
  _exit(0);  // none of the parent's exit handlers or destructors run twice
}

// Everything the child writes, until it closes the pipe; false when the deadline passed first.
bool readUntilClosed(int fd, std::string& out, double timeoutSeconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
  char buf[1 << 16];
  for (;;) {
    int waitMs = -1;
    if (timeoutSeconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      waitMs = static_cast<int>(std::min<int64_t>(left.count(), 1000));
    }
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, waitMs);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buf, static_cast<size_t>(n));
  }
}

// The parts of a complete answer; false for a truncated one.
bool decode(const std::string& bytes, uint8_t& status, std::vector<std::string>& parts) {
  size_t at = 0;
  auto take = [&](void* dst, size_t n) {
    if (bytes.size() - at < n) return false;
    std::memcpy(dst, bytes.data() + at, n);
    at += n;
    return true;
  };
  uint64_t count = 0;
  if (!take(&status, 1) || !take(&count, sizeof count)) return false;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t n = 0;
    if (!take(&n, sizeof n) || bytes.size() - at < n) return false;
    parts.emplace_back(bytes.data() + at, n);
    at += n;
  }
  return at == bytes.size();
}

}  // namespace

void answerFromIsolatedChild(const InputError& e) {
  if (gAnswerFd >= 0) writeAnswer(gAnswerFd, kInputError, {e.file, std::to_string(e.line), e.what()});
  _exit(0);
}

std::vector<std::string> runIsolated(const std::string& what, double timeoutSeconds,
                                     const std::function<std::vector<std::string>()>& work) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  pid_t pid = forkChildOfTool();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(fmt::format("cannot fork for {}: {}", what, std::strerror(errno)));
  }
  if (pid == 0) {
    if (int null = ::open("/dev/null", O_RDONLY); null >= 0) ::dup2(null, 0);  // #include "/dev/stdin" reads nothing
    ::close(fds[0]);
    childMain(fds[1], work);
  }
  ::close(fds[1]);
  std::string bytes;
  bool finished = readUntilClosed(fds[0], bytes, timeoutSeconds);
  ::close(fds[0]);
  if (!finished) ::kill(pid, SIGKILL);
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  releaseChild(pid);
  if (!finished) throw IsolatedFailure(fmt::format("{} ran past its {} s and was stopped", what, timeoutSeconds));
  if (WIFSIGNALED(wstatus)) {
    IsolatedFailure f(fmt::format("{} crashed ({})", what, strsignal(WTERMSIG(wstatus))));
    f.signal = WTERMSIG(wstatus);
    throw f;
  }
  uint8_t status = 0;
  std::vector<std::string> parts;
  if (!decode(bytes, status, parts))
    throw IsolatedFailure(fmt::format("{} ended without an answer (exit status {})", what, WEXITSTATUS(wstatus)));
  if (status == kInputError && parts.size() == 3) throw InputError(parts[0], std::atoi(parts[1].c_str()), parts[2]);
  if (status != kOk) throw std::runtime_error(parts.empty() ? what + " failed" : parts[0]);
  return parts;
}

}  // namespace td
