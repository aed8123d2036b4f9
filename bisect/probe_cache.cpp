#include "bisect/probe_cache.h"

#include <filesystem>
#include <fmt/format.h>
#include <sqlite3.h>

#include "frontend/cache_files.h"
#include "history/sqlite_file.h"

namespace td::bisect {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS probes (key TEXT PRIMARY KEY, shape TEXT NOT NULL, verdict INTEGER NOT NULL, "
    "exit_code INTEGER NOT NULL, runs INTEGER NOT NULL, failures INTEGER NOT NULL, kind TEXT, message TEXT, "
    "place TEXT, report TEXT, seconds REAL, launch_index INTEGER, made TEXT DEFAULT (datetime('now')))";

}  // namespace

ProbeCache::ProbeCache(const std::string& path) : path_(path) {
  if (!path_.empty()) db_ = openSqliteFile(path_, kSchema, "a tile-doctor probe cache");
}

ProbeCache::~ProbeCache() {
  if (db_) sqlite3_close(db_);
}

std::optional<ProbeOutcome> ProbeCache::find(const std::string& key) const {
  if (!db_) return std::nullopt;
  try {
    return lookUp(key);
  } catch (const std::runtime_error&) {  // a cache another version wrote: a miss, the probe runs
    return std::nullopt;
  }
}

std::optional<ProbeOutcome> ProbeCache::lookUp(const std::string& key) const {
  SqlStatement s(db_, "SELECT verdict, exit_code, runs, failures, kind, message, place, report, seconds, launch_index "
                      "FROM probes WHERE key = ?");
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  ProbeOutcome o;
  o.verdict = static_cast<Verdict>(s.integer(0));
  o.exitCode = static_cast<int>(s.integer(1));
  o.runs = static_cast<int>(s.integer(2));
  o.failures = static_cast<int>(s.integer(3));
  o.kind = s.text(4);
  o.message = s.text(5);
  o.place = s.text(6);
  std::string report = s.text(7);
  o.report = report.empty() ? nlohmann::json() : nlohmann::json::parse(report, nullptr, false);
  if (o.report.is_discarded()) o.report = nullptr;
  o.seconds = s.real(8);
  o.launchIndex = static_cast<int>(s.integer(9));
  o.cached = true;
  return o;
}

bool ProbeCache::keep(const std::string& key, const std::string& shape, const ProbeOutcome& o) {
  if (!db_ || o.verdict == Verdict::Error) return true;  // an unjudged probe is tried again next time
  std::string report = o.report.is_null() ? "" : o.report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  try {
    SqlStatement s(db_, "INSERT OR REPLACE INTO probes (key, shape, verdict, exit_code, runs, failures, kind, message, "
                        "place, report, seconds, launch_index) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    s.bind(1, key).bind(2, shape).bind(3, static_cast<int64_t>(o.verdict)).bind(4, static_cast<int64_t>(o.exitCode))
        .bind(5, static_cast<int64_t>(o.runs)).bind(6, static_cast<int64_t>(o.failures)).bind(7, o.kind).bind(8, o.message)
        .bind(9, o.place).bind(10, report).bind(11, o.seconds).bind(12, static_cast<int64_t>(o.launchIndex));
    s.step();
    return true;
  } catch (const std::runtime_error&) {  // a full disk: the search goes on, the report counts the loss
    return false;
  }
}

int64_t ProbeCache::size() const {
  if (!db_) return 0;
  SqlStatement s(db_, "SELECT COUNT(*) FROM probes");
  return s.step() ? s.integer(0) : 0;
}

std::string defaultProbeCachePath() {
  std::string dir = cacheDir();
  return dir.empty() ? "" : (std::filesystem::path(dir) / "bisect-probes.sqlite").string();
}

}  // namespace td::bisect
