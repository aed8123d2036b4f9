// The parent's side of an executor's child process, the same for both executors: wait for it, asking
// between waits whether to give up on it (a hang, a setup that never ends), kill it then, and release it
// from the tool's children (frontend/lifetime.h) either way.
#pragma once
#include <chrono>
#include <functional>
#include <sys/types.h>

namespace td {

struct ChildEnd {
  int status = 0;       // as waitpid gives it
  bool killed = false;  // `giveUp` said so
};

// `giveUp` runs every `tick` while the child lives; returning true kills the child.
ChildEnd watchChild(pid_t pid, std::chrono::microseconds tick, const std::function<bool()>& giveUp);

}  // namespace td
