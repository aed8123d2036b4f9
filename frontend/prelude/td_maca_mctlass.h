// What tilelang-metax's tl_templates/maca take from mcTlass's <mctlass/fast_math.h> (not public): the
// function qualifiers, fast_max/fast_min (as CUTLASS's: the larger or smaller, a NaN operand giving the
// other, through fmaxf/fminf for floating types), and the `platform::numeric_limits` the templates
// specialise for __half.
#pragma once
#include <limits>
#include <type_traits>

#ifndef MCTLASS_HOST_DEVICE
#define MCTLASS_HOST_DEVICE __forceinline__ __host__ __device__
#define MCTLASS_DEVICE __forceinline__ __device__
#endif

namespace platform {
template <typename T> struct numeric_limits : std::numeric_limits<T> {};
}  // namespace platform

namespace mctlass {
template <typename T> MCTLASS_HOST_DEVICE T fast_max(T a, T b) {
  if constexpr (std::is_integral_v<T>) return a < b ? b : a;
  else return T(fmaxf(float(a), float(b)));
}
template <typename T> MCTLASS_HOST_DEVICE T fast_min(T a, T b) {
  if constexpr (std::is_integral_v<T>) return b < a ? b : a;
  else return T(fminf(float(a), float(b)));
}
MCTLASS_HOST_DEVICE double fast_max(double a, double b) { return fmax(a, b); }
MCTLASS_HOST_DEVICE double fast_min(double a, double b) { return fmin(a, b); }
}  // namespace mctlass
