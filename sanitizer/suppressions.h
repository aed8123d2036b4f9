// --suppressions FILE: findings a project has accepted, kept out of the exit code and still listed as
// suppressed. One per line, TSan-style `RULE:PATTERN` ('#' starts a comment):
//   RULE     a rule id (`tile-doctor rules`), a family (bounds, race, sync, init, launch, numerics, run) or *
//   PATTERN  matched (with * and ?) against the kernel's name, the source place file:line and the file alone
//            (its path as reported, relative to the working folder, or its name), the script's Python line
//            file.py:line, and the function; a pattern without wildcards also matches as a path ending
//            (src/gemm.cu:31 matches /home/ci/repo/src/gemm.cu:31)
//   fingerprint:ID   exactly one finding: its id in the JSON and SARIF reports
// Every suppression that matched nothing is reported (a stale suppression hides nothing and should go).
#pragma once
#include <string>
#include <vector>

#include "sanitizer/run_set.h"

namespace td {

struct Suppression {
  std::string file;
  int line = 0;
  std::string rule, pattern;  // rule "fingerprint": pattern is the id
  int matched = 0;
};

class Suppressions {
 public:
  // InputError naming the file and line for a line that is not RULE:PATTERN or names an unknown rule.
  static Suppressions load(const std::string& path);
  // Moves every finding a suppression matches from Report::findings to Report::suppressed.
  void apply(std::vector<RunSet>& sets);
  const std::vector<Suppression>& entries() const { return entries_; }
  std::vector<const Suppression*> unused() const;

 private:
  const Suppression* match(const Finding& f, const std::string& kernel) const;
  std::vector<Suppression> entries_;
};

}  // namespace td
