#include "frontend/work_deadline.h"

#include <fmt/format.h>

namespace td {

WorkDeadline::WorkDeadline(double seconds, std::string what)
    : limited_(true),
      seconds_(seconds),
      end_(std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds))),
      what_(std::move(what)) {}

void WorkDeadline::check() const {
  if (limited_ && std::chrono::steady_clock::now() >= end_)
    throw WorkTimedOut(fmt::format("{} took longer than --timeout ({} s) and was stopped", what_, seconds_));
}

}  // namespace td
