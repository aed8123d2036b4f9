#include "bisect/probe_cache.h"

#include <filesystem>
#include <fmt/format.h>
#include <sqlite3.h>

#include "frontend/cache_files.h"
#include "frontend/input_error.h"

namespace td::bisect {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS probes (key TEXT PRIMARY KEY, shape TEXT NOT NULL, verdict INTEGER NOT NULL, "
    "exit_code INTEGER NOT NULL, runs INTEGER NOT NULL, failures INTEGER NOT NULL, kind TEXT, message TEXT, "
    "place TEXT, report TEXT, seconds REAL, launch_index INTEGER, made TEXT DEFAULT (datetime('now')))";

// A prepared statement, finalised when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Statement() { sqlite3_finalize(s_); }
  sqlite3_stmt* get() const { return s_; }
  explicit operator bool() const { return s_ != nullptr; }

 private:
  sqlite3_stmt* s_ = nullptr;
};

std::string column(sqlite3_stmt* s, int i) {
  const unsigned char* t = sqlite3_column_text(s, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

}  // namespace

ProbeCache::ProbeCache(const std::string& path) : path_(path) {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::path parent = std::filesystem::path(path_).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (sqlite3_open(path_.c_str(), &db_) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(path_, 0, "cannot open the probe cache: " + why);
  }
  sqlite3_busy_timeout(db_, 10000);
  char* err = nullptr;
  if (sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, &err) != SQLITE_OK ||
      sqlite3_exec(db_, kSchema, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string why = err ? err : "unknown error";
    sqlite3_free(err);
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(path_, 0, "the probe cache is not a tile-doctor probe database: " + why);
  }
}

ProbeCache::~ProbeCache() {
  if (db_) sqlite3_close(db_);
}

std::optional<ProbeOutcome> ProbeCache::find(const std::string& key) const {
  if (!db_) return std::nullopt;
  Statement s(db_, "SELECT verdict, exit_code, runs, failures, kind, message, place, report, seconds, launch_index FROM probes WHERE key = ?");
  if (!s) return std::nullopt;
  sqlite3_bind_text(s.get(), 1, key.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(s.get()) != SQLITE_ROW) return std::nullopt;
  ProbeOutcome o;
  o.verdict = static_cast<Verdict>(sqlite3_column_int(s.get(), 0));
  o.exitCode = sqlite3_column_int(s.get(), 1);
  o.runs = sqlite3_column_int(s.get(), 2);
  o.failures = sqlite3_column_int(s.get(), 3);
  o.kind = column(s.get(), 4);
  o.message = column(s.get(), 5);
  o.place = column(s.get(), 6);
  std::string report = column(s.get(), 7);
  o.report = report.empty() ? nlohmann::json() : nlohmann::json::parse(report, nullptr, false);
  if (o.report.is_discarded()) o.report = nullptr;
  o.seconds = sqlite3_column_double(s.get(), 8);
  o.launchIndex = sqlite3_column_int(s.get(), 9);
  o.cached = true;
  return o;
}

bool ProbeCache::keep(const std::string& key, const std::string& shape, const ProbeOutcome& o) {
  if (!db_ || o.verdict == Verdict::Error) return true;  // an unjudged probe is tried again next time
  Statement s(db_, "INSERT OR REPLACE INTO probes (key, shape, verdict, exit_code, runs, failures, kind, message, "
                   "place, report, seconds, launch_index) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!s) return false;
  std::string report = o.report.is_null() ? "" : o.report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  sqlite3_bind_text(s.get(), 1, key.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s.get(), 2, shape.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(s.get(), 3, static_cast<int>(o.verdict));
  sqlite3_bind_int(s.get(), 4, o.exitCode);
  sqlite3_bind_int(s.get(), 5, o.runs);
  sqlite3_bind_int(s.get(), 6, o.failures);
  sqlite3_bind_text(s.get(), 7, o.kind.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s.get(), 8, o.message.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s.get(), 9, o.place.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s.get(), 10, report.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(s.get(), 11, o.seconds);
  sqlite3_bind_int(s.get(), 12, o.launchIndex);
  return sqlite3_step(s.get()) == SQLITE_DONE;
}

int64_t ProbeCache::size() const {
  if (!db_) return 0;
  Statement s(db_, "SELECT COUNT(*) FROM probes");
  return s && sqlite3_step(s.get()) == SQLITE_ROW ? sqlite3_column_int64(s.get(), 0) : 0;
}

std::string defaultProbeCachePath() {
  std::string dir = cacheDir();
  return dir.empty() ? "" : (std::filesystem::path(dir) / "bisect-probes.sqlite").string();
}

}  // namespace td::bisect
