#include "driver/launch_policy.h"

#include <fmt/format.h>

#include "frontend/input_error.h"
#include "frontend/text_bounds.h"

namespace td {

LaunchPolicy LaunchPolicy::parse(const std::string& text) {
  LaunchPolicy p;
  if (text == "first") return p;
  if (text == "all") {
    p.mode_ = Mode::All;
    return p;
  }
  if (isDecimal(text, 9)) {
    p.mode_ = Mode::Count;
    p.count_ = std::stoll(text);
    return p;
  }
  throw InputError("--launches", 0, fmt::format("'{}' is not first, all or a number of launches", text));
}

LaunchPolicy::Decision LaunchPolicy::decide(int launch, const std::string& key) {
  auto [it, fresh] = firstOf_.emplace(key, launch);
  switch (mode_) {
    case Mode::All: return {true, 0};
    case Mode::Count: return {launch <= count_, fresh ? 0 : it->second};
    case Mode::First: return {fresh, fresh ? 0 : it->second};
  }
  return {};
}

}  // namespace td
