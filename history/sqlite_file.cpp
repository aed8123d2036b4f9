#include "history/sqlite_file.h"

#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <set>
#include <vector>
#include <sqlite3.h>
#include <stdexcept>

#include "frontend/input_error.h"
#include "frontend/paths.h"

namespace td {

namespace {

// Each table's columns, as `schema` makes them.
std::map<std::string, std::set<std::string>> columnsOf(sqlite3* db) {
  std::map<std::string, std::set<std::string>> out;
  std::vector<std::string> tables;
  {
    SqlStatement s(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    while (s.step()) tables.push_back(s.text(0));
  }
  for (const std::string& t : tables) {
    SqlStatement s(db, "SELECT name FROM pragma_table_info(?)");
    s.bind(1, t);
    while (s.step()) out[t].insert(s.text(0));
  }
  return out;
}

// A file that already held tables of the same names but other columns (another tool's, another version's)
// is not ours to write: said at the start, never an internal error at the first INSERT.
void requireSchema(sqlite3* db, const char* schema, const std::string& path, const std::string& what) {
  sqlite3* model = nullptr;
  if (sqlite3_open(":memory:", &model) != SQLITE_OK || sqlite3_exec(model, schema, nullptr, nullptr, nullptr) != SQLITE_OK) {
    sqlite3_close(model);
    throw std::runtime_error("SQLite: cannot build the schema in memory");
  }
  std::map<std::string, std::set<std::string>> want = columnsOf(model), have;
  sqlite3_close(model);
  try {
    have = columnsOf(db);
  } catch (const std::runtime_error& e) {
    throw InputError(path, 0, "not " + what + ": " + e.what());
  }
  for (const auto& [table, columns] : want)
    for (const std::string& c : columns)
      if (!have[table].count(c))
        throw InputError(path, 0, fmt::format("not {}: its table '{}' has no column '{}' (another tool's or another "
                                              "version's file)", what, table, c));
}

}  // namespace

sqlite3* openSqliteFile(const std::string& path, const char* schema, const std::string& what) {
  requireRegularFile(path, what);  // a FIFO would block SQLite's first read for ever
  std::error_code ec;
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::string why = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw InputError(path, 0, "cannot open " + what + ": " + why);
  }
  sqlite3_busy_timeout(db, 30000);
  char* err = nullptr;
  if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, &err) != SQLITE_OK ||
      sqlite3_exec(db, schema, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string why = err ? err : "unknown error";
    sqlite3_free(err);
    sqlite3_close(db);
    throw InputError(path, 0, "not " + what + ": " + why);
  }
  try {
    requireSchema(db, schema, path, what);
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  return db;
}

SqlStatement::SqlStatement(sqlite3* db, const char* sql) {
  if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db));
}

SqlStatement::~SqlStatement() { sqlite3_finalize(s_); }

SqlStatement& SqlStatement::bind(int i, const std::string& v) {
  sqlite3_bind_text(s_, i, v.c_str(), -1, SQLITE_TRANSIENT);
  return *this;
}

SqlStatement& SqlStatement::bind(int i, int64_t v) {
  sqlite3_bind_int64(s_, i, v);
  return *this;
}

SqlStatement& SqlStatement::bind(int i, double v) {
  sqlite3_bind_double(s_, i, v);
  return *this;
}

bool SqlStatement::step() {
  int rc = sqlite3_step(s_);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) throw std::runtime_error(std::string("SQLite: ") + sqlite3_errstr(rc));
  return rc == SQLITE_ROW;
}

std::string SqlStatement::text(int i) const {
  const unsigned char* t = sqlite3_column_text(s_, i);
  return t ? reinterpret_cast<const char*>(t) : "";
}

int64_t SqlStatement::integer(int i) const { return sqlite3_column_int64(s_, i); }

double SqlStatement::real(int i) const { return sqlite3_column_double(s_, i); }

}  // namespace td
