// Nothing tile-doctor starts outlives it. Child processes (the executor's, clang's, the script's Python)
// are killed when it ends by SIGTERM, SIGINT or SIGHUP, and die with it when it is killed (SIGKILL):
// each child asks the kernel for SIGKILL at its parent's death. Temporary folders and files are removed
// on those signals too; one a SIGKILL left behind is removed by the next run (its name holds the pid).
#pragma once
#include <string>
#include <vector>
#include <sys/types.h>

namespace td {

// main() calls this first, before any thread starts: the termination signals are blocked in every
// thread and taken by one that cleans up, then ends the process with the same signal.
void installTerminationHandling();

// main() calls this before it returns: while a termination signal is being handled (its children killed,
// which makes the work in progress fail), the process waits to end by that signal, not by an exit code.
void holdIfTerminating();

// fork() for a child that must not outlive the tool: the child (0 returned) dies with its parent and takes
// signals as usual again; the parent gets the pid, adopted until releaseChild() once it is reaped; -1
// when fork failed.
pid_t forkChildOfTool();
void releaseChild(pid_t pid);

// execv(argv) in such a child, its standard output and error into `logPath`, standard input /dev/null;
// `ownGroup`: a process group of its own, so killing -pid ends everything it started. The parent gets
// the pid (waits for it, then releaseChild); -1 when fork failed.
pid_t spawnChildOfTool(const std::vector<std::string>& argv, const std::string& logPath, bool ownGroup);

// Temporary paths to clean up on a termination signal, while they exist.
void adoptTemporary(const std::string& path);
void releaseTemporary(const std::string& path);

// "tile-doctor-capture-<pid>-": the prefix of this process's temporary folders under the temp folder;
// removeStaleTemporaries() removes those of processes that no longer exist, of every kind (capture,
// bisect, dump, diff, ptxas): main() calls it once a run, so a SIGKILL leaves nothing for long.
std::string temporaryPrefix(const std::string& what);
void removeStaleTemporaries();

// "PATH.tile-doctor-<pid>.tmp": where a file written beside its final name is staged; the stale ones of
// processes that no longer exist, beside `path`, are removed by removeStaleStaging(path).
std::string stagingPath(const std::string& path);
void removeStaleStaging(const std::string& path);

// True once a termination signal is being handled: what ends in an error now does so because the tool is
// being stopped, and must not replace a report already written.
bool terminating();

// A fresh folder under the temp folder (temporaryPrefix(what) + a number), removed when it goes out of
// scope or a termination signal ends the tool.
class TemporaryFolder {
 public:
  explicit TemporaryFolder(const std::string& what);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace td
