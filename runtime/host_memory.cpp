#include "runtime/host_memory.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

namespace td {

namespace {

// The first number in a file ("max" or an unreadable file: 0).
uint64_t numberIn(const std::string& path) {
  std::ifstream in(path);
  uint64_t v = 0;
  return in >> v ? v : 0;
}

// This process's cgroup v2 folder ("" when none).
std::string cgroupDir() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("0::", 0) == 0) return "/sys/fs/cgroup" + line.substr(3);
  return "";
}

}  // namespace

uint64_t availableMemory(std::string& source) {
  uint64_t avail = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  source = "physical memory";
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream(line.substr(13)) >> avail;
      avail *= 1024;
      source = "MemAvailable in /proc/meminfo";
    }
  auto lower = [&](uint64_t limit, uint64_t used, const char* what) {
    if (limit > 0 && limit > used && limit - used < avail) {
      avail = limit - used;
      source = what;
    }
  };
  if (std::string dir = cgroupDir(); !dir.empty())
    lower(numberIn(dir + "/memory.max"), numberIn(dir + "/memory.current"), "the cgroup's memory.max less memory.current");
  // cgroup v1, as containers mount it (their own group at the mount's root).
  lower(numberIn("/sys/fs/cgroup/memory/memory.limit_in_bytes"), numberIn("/sys/fs/cgroup/memory/memory.usage_in_bytes"),
        "the cgroup's memory.limit_in_bytes less its usage");
  return avail;
}

}  // namespace td
