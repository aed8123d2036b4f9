// Which launches of a script `check kernel.py` checks (--launches): each distinct kernel + shapes +
// scalars the first time (first), every launch (all), or the script's first N launches (N, as
// compute-sanitizer's --launch-count). The others still run, unchecked, so the script gets its outputs.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace td {

class LaunchPolicy {
 public:
  static LaunchPolicy parse(const std::string& text);  // throws InputError for anything else

  struct Decision {
    bool check = true;
    int sameAs = 0;  // unchecked: the earlier launch with the same key (0: none)
  };
  // Call once per launch, in order; `launch` counts from 1.
  Decision decide(int launch, const std::string& key);

 private:
  enum class Mode { First, All, Count } mode_ = Mode::First;
  int64_t count_ = 0;
  std::map<std::string, int> firstOf_;
};

}  // namespace td
