#include "runtime/child_watch.h"

#include <cerrno>
#include <csignal>
#include <sys/wait.h>
#include <thread>

#include "frontend/lifetime.h"

namespace td {

ChildEnd watchChild(pid_t pid, std::chrono::microseconds tick, const std::function<bool()>& giveUp) {
  ChildEnd end;
  for (;;) {
    if (waitpid(pid, &end.status, WNOHANG) == pid) break;
    if (giveUp()) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &end.status, 0) < 0 && errno == EINTR) {  // a signal to the tool must not lose the status
      }
      end.killed = true;
      break;
    }
    std::this_thread::sleep_for(tick);
  }
  releaseChild(pid);
  return end;
}

}  // namespace td
