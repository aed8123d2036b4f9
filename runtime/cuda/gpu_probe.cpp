#include "runtime/cuda/gpu_probe.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontend/lifetime.h"
#include "runtime/cuda/child_status.h"
#include "runtime/cuda/driver.h"
#include "runtime/shared_mapping.h"

namespace td::cuda {

bool gpuAvailable(int device, std::string& why) {
  auto* msg = mapShared<char>(512);
  std::fflush(nullptr);
  pid_t pid = forkChildOfTool();
  if (pid == 0) {
    Driver d{};
    std::string w;
    int count = 0;
    if (!d.open(w)) {
      copyText(msg, 512, w);
      _exit(1);
    }
    CUresult r = d.cuInit(0);
    if (r != 0 || d.cuDeviceGetCount(&count) != 0 || count <= device) {
      copyText(msg, 512, r != 0 ? "cuInit: " + d.errorName(r) : fmt::format("no CUDA device {} ({} found)", device, count));
      _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  releaseChild(pid);
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  why = msg;
  munmap(msg, 512);
  return ok;
}

}  // namespace td::cuda
