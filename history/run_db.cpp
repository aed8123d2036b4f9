#include "history/run_db.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "frontend/input_error.h"
#include "history/sqlite_file.h"

namespace td {

namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, tool_version TEXT,
  command TEXT, target TEXT, executor TEXT, lowering TEXT, params TEXT, shard TEXT, inputs INTEGER, exit_code INTEGER,
  seconds REAL, origin TEXT DEFAULT '');
CREATE TABLE IF NOT EXISTS checks (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id INTEGER NOT NULL REFERENCES runs(id),
  input TEXT, kernel TEXT, launch INTEGER, called_at TEXT, shapes TEXT, target TEXT, executor TEXT, exit_code INTEGER,
  compile_seconds REAL, run_seconds REAL, error TEXT);
CREATE TABLE IF NOT EXISTS findings (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id INTEGER NOT NULL REFERENCES runs(id),
  check_id INTEGER REFERENCES checks(id), input TEXT, kernel TEXT, finding_id TEXT, kind TEXT, message TEXT, place TEXT,
  count INTEGER, state TEXT);
CREATE INDEX IF NOT EXISTS findings_by_run ON findings(run_id);
)";

std::string now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string placeOf(const Finding& f) {
  if (!f.loc.python.empty()) return f.loc.python;
  return f.loc.file.empty() ? "" : fmt::format("{}:{}", portablePath(f.loc.file), f.loc.line);
}

std::string inputOf(const RunSet& set, const Run& run) { return set.script ? set.script->script : run.bundle; }

RunRow rowOf(const SqlStatement& s) {
  RunRow r;
  r.id = s.integer(0);
  r.started = s.text(1);
  r.toolVersion = s.text(2);
  r.command = s.text(3);
  r.target = s.text(4);
  r.executor = s.text(5);
  r.shard = s.text(6);
  r.inputs = static_cast<int>(s.integer(7));
  r.exitCode = static_cast<int>(s.integer(8));
  r.seconds = s.real(9);
  r.origin = s.text(10);
  r.findings = static_cast<int>(s.integer(11));
  r.suppressed = static_cast<int>(s.integer(12));
  return r;
}

constexpr const char* kRunColumns =
    "SELECT r.id, r.started, r.tool_version, r.command, r.target, r.executor, r.shard, r.inputs, r.exit_code, r.seconds, "
    "r.origin, (SELECT COUNT(*) FROM findings f WHERE f.run_id = r.id AND f.state IN ('reported', 'new')), "
    "(SELECT COUNT(*) FROM findings f WHERE f.run_id = r.id AND f.state = 'suppressed') FROM runs r";

}  // namespace

RunDb::RunDb(const std::string& path) : path_(path), db_(openSqliteFile(path, kSchema, "the history database")) {}

RunDb::~RunDb() {
  if (db_) sqlite3_close(db_);
}

void RunDb::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string why = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error("history database " + path_ + ": " + why);
  }
}

void RunDb::requireWritable() const {
  if (sqlite3_db_readonly(db_, "main") == 1)
    throw InputError(path_, 0, "the history database is read-only: tile-doctor records each run in it");
}

int64_t RunDb::record(const RunRecord& run, const std::vector<RunSet>& sets, int exitCode) {
  try {
    return insert(run, sets, exitCode);
  } catch (const InputError&) {
    throw;
  } catch (const std::runtime_error& e) {  // a full disk, a file made read-only or locked past the wait
    throw InputError(path_, 0, fmt::format("cannot record the run in the history database: {}", e.what()));
  }
}

int64_t RunDb::insert(const RunRecord& run, const std::vector<RunSet>& sets, int exitCode) {
  exec("BEGIN IMMEDIATE");
  try {
    SqlStatement r(db_, "INSERT INTO runs (started, tool_version, command, target, executor, lowering, params, shard, inputs, "
                     "exit_code, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    r.bind(1, now()).bind(2, std::string(toolVersion())).bind(3, run.command).bind(4, run.target).bind(5, run.executor)
        .bind(6, run.lowering).bind(7, nlohmann::json(run.params).dump()).bind(8, run.shard)
        .bind(9, static_cast<int64_t>(sets.size())).bind(10, static_cast<int64_t>(exitCode)).bind(11, run.seconds);
    r.step();
    int64_t runId = sqlite3_last_insert_rowid(db_);
    for (const RunSet& set : sets)
      for (const Run& item : set.runs) {
        SqlStatement c(db_, "INSERT INTO checks (run_id, input, kernel, launch, called_at, shapes, target, executor, exit_code, "
                         "compile_seconds, run_seconds, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        const Report* rep = item.report ? &*item.report : nullptr;
        nlohmann::json shapes = {{"shapes", item.shapes}, {"scalars", item.scalars}};
        c.bind(1, runId).bind(2, inputOf(set, item)).bind(3, rep ? rep->kernel : item.entry)
            .bind(4, static_cast<int64_t>(item.launch)).bind(5, item.calledAt).bind(6, shapes.dump())
            .bind(7, rep ? rep->target : run.target).bind(8, rep ? rep->executor : run.executor)
            .bind(9, static_cast<int64_t>(rep ? rep->exitCode() : item.errorCode))
            .bind(10, rep ? rep->compileSeconds : 0.0).bind(11, rep ? rep->runSeconds : 0.0).bind(12, item.error);
        c.step();
        int64_t checkId = sqlite3_last_insert_rowid(db_);
        if (!rep) continue;
        auto put = [&](const Finding& f, const char* state) {
          SqlStatement s(db_, "INSERT INTO findings (run_id, check_id, input, kernel, finding_id, kind, message, place, count, "
                           "state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
          s.bind(1, runId).bind(2, checkId).bind(3, inputOf(set, item)).bind(4, rep->kernel).bind(5, findingId(f))
              .bind(6, f.kind).bind(7, f.title).bind(8, placeOf(f)).bind(9, static_cast<int64_t>(f.count))
              .bind(10, std::string(state));
          s.step();
        };
        for (const Finding& f : rep->findings) put(f, f.baselineState == "new" ? "new" : "reported");
        for (const Finding& f : rep->baselined) put(f, "unchanged");
        for (const Finding& f : rep->suppressed) put(f, "suppressed");
      }
    exec("COMMIT");
    return runId;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::vector<RunRow> RunDb::runs() const {
  SqlStatement s(db_, (std::string(kRunColumns) + " ORDER BY r.id").c_str());
  std::vector<RunRow> out;
  while (s.step()) out.push_back(rowOf(s));
  return out;
}

RunRow RunDb::run(int64_t id) const {
  SqlStatement s(db_, (std::string(kRunColumns) + " WHERE r.id = ?").c_str());
  s.bind(1, id);
  if (!s.step()) throw InputError(path_, 0, fmt::format("the history has no run {}", id));
  return rowOf(s);
}

int64_t RunDb::latest() const {
  SqlStatement s(db_, "SELECT COALESCE(MAX(id), 0) FROM runs");
  s.step();
  return s.integer(0);
}

std::vector<FindingRow> RunDb::findings(int64_t runId) const {
  SqlStatement s(db_, "SELECT input, kernel, finding_id, kind, message, place, count, state FROM findings WHERE run_id = ? ORDER BY id");
  s.bind(1, runId);
  std::vector<FindingRow> out;
  while (s.step()) out.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(7), s.integer(6)});
  return out;
}

int RunDb::merge(const std::string& other) {
  if (!std::filesystem::is_regular_file(other)) throw InputError(other, 0, "no such history database");
  if (std::filesystem::equivalent(other, path_)) throw InputError(other, 0, "is the database merged into");
  { RunDb source(other); }  // is one (its schema made if it was empty)
  SqlStatement a(db_, "ATTACH DATABASE ? AS shard");
  a.bind(1, other);
  a.step();
  int copied = 0;
  try {
    exec("BEGIN IMMEDIATE");
    SqlStatement ids(db_, "SELECT id FROM shard.runs ORDER BY id");
    std::vector<int64_t> runs;
    while (ids.step()) runs.push_back(ids.integer(0));
    for (int64_t old : runs) {
      SqlStatement r(db_, "INSERT INTO runs (started, tool_version, command, target, executor, lowering, params, shard, inputs, "
                       "exit_code, seconds, origin) SELECT started, tool_version, command, target, executor, lowering, params, "
                       "shard, inputs, exit_code, seconds, CASE WHEN origin = '' THEN ? ELSE origin END FROM shard.runs WHERE id = ?");
      r.bind(1, other).bind(2, old);
      r.step();
      int64_t fresh = sqlite3_last_insert_rowid(db_);
      SqlStatement checks(db_, "SELECT id FROM shard.checks WHERE run_id = ? ORDER BY id");
      checks.bind(1, old);
      std::vector<int64_t> oldChecks;
      while (checks.step()) oldChecks.push_back(checks.integer(0));
      for (int64_t oc : oldChecks) {
        SqlStatement c(db_, "INSERT INTO checks (run_id, input, kernel, launch, called_at, shapes, target, executor, exit_code, "
                         "compile_seconds, run_seconds, error) SELECT ?, input, kernel, launch, called_at, shapes, target, "
                         "executor, exit_code, compile_seconds, run_seconds, error FROM shard.checks WHERE id = ?");
        c.bind(1, fresh).bind(2, oc);
        c.step();
        int64_t nc = sqlite3_last_insert_rowid(db_);
        SqlStatement f(db_, "INSERT INTO findings (run_id, check_id, input, kernel, finding_id, kind, message, place, count, "
                         "state) SELECT ?, ?, input, kernel, finding_id, kind, message, place, count, state FROM "
                         "shard.findings WHERE check_id = ?");
        f.bind(1, fresh).bind(2, nc).bind(3, oc);
        f.step();
      }
      ++copied;
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_exec(db_, "DETACH DATABASE shard", nullptr, nullptr, nullptr);
    throw;
  }
  exec("DETACH DATABASE shard");
  return copied;
}

}  // namespace td
