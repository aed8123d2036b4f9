// --timeout bounds tile-doctor's own work around a launch as it bounds the kernel: generating, reading and
// saving inputs, comparing the outputs of repeated runs. Long loops work in slices and look at the clock
// between them, so a 2 GiB normal() fill at --timeout 1 stops after about a second, not after 17.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace td {

// The run passed --timeout in tile-doctor's own work (exit 3, JSON error kind "timeout").
struct WorkTimedOut : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class WorkDeadline {
 public:
  WorkDeadline() = default;  // no limit
  // `what` completes "... took longer than --timeout": "preparing the inputs of kernel K".
  WorkDeadline(double seconds, std::string what);

  // Throws WorkTimedOut once the deadline has passed.
  void check() const;

  // body(begin, end) over [0, n) in slices of `slice` items, the deadline checked before each.
  template <class Body>
  void inSlices(uint64_t n, uint64_t slice, Body body) const {
    for (uint64_t at = 0; at < n; at += slice) {
      check();
      body(at, std::min(n, at + slice));
    }
  }

 private:
  bool limited_ = false;
  double seconds_ = 0;
  std::chrono::steady_clock::time_point end_{};
  std::string what_;
};

// Slice sizes that keep the clock checks rare but the overrun small (tens of milliseconds).
constexpr uint64_t kElementsPerSlice = 1u << 20;
constexpr uint64_t kBytesPerSlice = 64u << 20;

}  // namespace td
