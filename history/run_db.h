// The run history (`check --db FILE`, `tile-doctor history`): every check in SQLite (WAL mode, so CI jobs
// and shards may write concurrently) — the run (when, tool version, command, target, executor, shard, exit
// code, time), each checked kernel or launch (input, kernel, parameters, lowering, exit code, timings)
// and each finding (its id, kind, message, place, count and state: reported, new, unchanged, suppressed).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sanitizer/ci_outcome.h"
#include "sanitizer/run_set.h"

struct sqlite3;

namespace td {

struct RunRecord {
  std::string command, target, executor, lowering, shard;
  std::vector<std::string> params;  // --param NAME=VALUE as given
  double seconds = 0;
};

struct RunRow {
  int64_t id = 0;
  std::string started, toolVersion, command, target, executor, shard, origin;
  int inputs = 0, exitCode = 0, findings = 0, suppressed = 0;
  double seconds = 0;
};

struct FindingRow {
  std::string input, kernel, id, kind, message, place, state;
  int64_t count = 1;
};

class RunDb {
 public:
  // Opens (creating) the database; InputError naming the file when it cannot, or holds something else.
  explicit RunDb(const std::string& path);
  ~RunDb();
  RunDb(const RunDb&) = delete;
  RunDb& operator=(const RunDb&) = delete;

  // InputError naming the file when it cannot be written: a bad --db, not tile-doctor's failure.
  int64_t record(const RunRecord& run, const std::vector<RunSet>& sets, int exitCode);
  void requireWritable() const;  // a read-only file is refused before any kernel runs
  std::vector<RunRow> runs() const;
  RunRow run(int64_t id) const;  // InputError when there is no such run
  int64_t latest() const;        // 0 when empty
  std::vector<FindingRow> findings(int64_t runId) const;
  // Copies every run of another history database into this one (new ids, `origin` naming the file);
  // returns the runs copied.
  int merge(const std::string& other);
  const std::string& path() const { return path_; }

 private:
  void exec(const char* sql) const;
  int64_t insert(const RunRecord& run, const std::vector<RunSet>& sets, int exitCode);
  std::string path_;
  sqlite3* db_ = nullptr;
};

// This build of tile-doctor ("0.1+g1234abc"), as the history records it.
const char* toolVersion();

}  // namespace td
