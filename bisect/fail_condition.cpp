#include "bisect/fail_condition.h"

#include <algorithm>
#include <fmt/format.h>

#include "frontend/input_error.h"
#include "model/family.h"
#include "model/rules.h"

namespace td::bisect {

namespace {

// The "run" family split the way users ask: a crash (the kernel faulted or made an access outside its
// memory, trapped, asserted or took its process down, or the driver refused it) or a hang (it outlived
// --timeout, or its threads deadlocked).
const std::vector<std::string>& crashKinds() {
  static const std::vector<std::string> k = {rule::KernelFault, rule::WildAccess, rule::KernelCrash,
                                             rule::DeviceAssert, rule::DeviceTrap, rule::LaunchRejected};
  return k;
}
const std::vector<std::string>& hangKinds() {
  static const std::vector<std::string> k = {rule::KernelHang, rule::Deadlock};
  return k;
}

}  // namespace

FailCondition FailCondition::parse(const std::string& text) {
  FailCondition c;
  c.text_ = text;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string word = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (word.empty()) continue;
    if (word == "any") c.any_ = true;
    else if (word == "crash") c.kinds_.insert(c.kinds_.end(), crashKinds().begin(), crashKinds().end());
    else if (word == "hang") c.kinds_.insert(c.kinds_.end(), hangKinds().begin(), hangKinds().end());
    else if (word == "limit") c.families_.push_back("launch");
    else if (findFamily(word)) c.families_.push_back(word);
    else if (findRule(word)) c.kinds_.push_back(word);
    else
      throw InputError("--fail-on", 0,
                       fmt::format("'{}' is neither any, crash, hang, limit, a check family ({}) nor a rule id "
                                   "(tile-doctor rules lists them)", word, familyNames()));
  }
  if (!c.any_ && c.families_.empty() && c.kinds_.empty())
    throw InputError("--fail-on", 0, fmt::format("'{}' names no failure", text));
  return c;
}

bool FailCondition::matches(const std::string& kind) const {
  if (any_) return true;
  if (std::find(kinds_.begin(), kinds_.end(), kind) != kinds_.end()) return true;
  const Rule* r = findRule(kind);
  return r && std::find(families_.begin(), families_.end(), r->family) != families_.end();
}

}  // namespace td::bisect
