// SQLite as tile-doctor keeps its files (the run history, bisect-shape's probe cache): opened in WAL mode
// with a busy timeout, so concurrent processes share one file, and errors as InputError naming the file.
#pragma once
#include <cstdint>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace td {

// Opens (creating the file and its folder) and runs `schema`; InputError (what: "the history database")
// when it cannot, or the file holds something else.
sqlite3* openSqliteFile(const std::string& path, const char* schema, const std::string& what);

// A prepared statement, finalised when it goes out of scope; a failed step throws.
class SqlStatement {
 public:
  SqlStatement(sqlite3* db, const char* sql);
  ~SqlStatement();
  SqlStatement(const SqlStatement&) = delete;
  SqlStatement& operator=(const SqlStatement&) = delete;
  SqlStatement& bind(int i, const std::string& v);
  SqlStatement& bind(int i, int64_t v);
  SqlStatement& bind(int i, double v);
  bool step();  // true: a row is there
  std::string text(int i) const;
  int64_t integer(int i) const;
  double real(int i) const;

 private:
  sqlite3_stmt* s_ = nullptr;
};

}  // namespace td
