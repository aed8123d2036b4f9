// `--fail-on`: which probe outcomes count as the failure bisect-shape looks for. A comma-separated list of
// any | crash | hang | bounds | race | sync | init | limit | numerics | a rule id (`tile-doctor rules`).
#pragma once
#include <string>
#include <vector>

namespace td::bisect {

class FailCondition {
 public:
  // InputError (file "--fail-on") for a word that is neither a class nor a rule id.
  static FailCondition parse(const std::string& text);
  bool matches(const std::string& kind) const;  // a finding of this kind is the failure
  bool any() const { return any_; }             // every finding, and a script that failed without one
  const std::string& text() const { return text_; }

 private:
  bool any_ = false;
  std::vector<std::string> families_, kinds_;
  std::string text_;
};

}  // namespace td::bisect
