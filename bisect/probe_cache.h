// Every probe's outcome kept in SQLite (WAL mode, so concurrent searches share the file): a search that
// was interrupted, or is run again, takes the probes it already made from here instead of repeating them.
// A probe's key names tile-doctor's executable, the input's contents, the probe's command line and the
// shape, so a rebuilt tool, an edited kernel or other options never reuse an outcome.
#pragma once
#include <optional>
#include <string>

#include "bisect/probe.h"

struct sqlite3;

namespace td::bisect {

class ProbeCache {
 public:
  // "" opens nothing: every lookup misses, nothing is kept. InputError when the file cannot be opened.
  explicit ProbeCache(const std::string& path);
  ~ProbeCache();
  ProbeCache(const ProbeCache&) = delete;
  ProbeCache& operator=(const ProbeCache&) = delete;

  std::optional<ProbeOutcome> find(const std::string& key) const;
  // False when the outcome could not be written (a full disk): the search goes on, the report says so.
  bool keep(const std::string& key, const std::string& shape, const ProbeOutcome& outcome);
  const std::string& path() const { return path_; }
  // The probes the file holds (for tests and the report).
  int64_t size() const;

 private:
  std::optional<ProbeOutcome> lookUp(const std::string& key) const;
  std::string path_;
  sqlite3* db_ = nullptr;
};

// The default file: bisect-probes.sqlite in tile-doctor's cache folder ("" when the cache is off).
std::string defaultProbeCachePath();

}  // namespace td::bisect
