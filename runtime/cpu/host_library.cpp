#include "runtime/cpu/host_library.h"

#include <set>
#include <string>

namespace td::cpu {

namespace {

const std::set<std::string>& mathNames() {
  static const std::set<std::string> names = [] {
    std::set<std::string> s;
    for (const char* base :
         {"acos", "asin", "atan", "atan2", "cos", "sin", "tan", "cosh", "sinh", "tanh", "acosh", "asinh", "atanh",
          "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "logb", "ilogb", "pow", "sqrt", "cbrt",
          "hypot", "erf", "erfc", "lgamma", "tgamma", "ceil", "floor", "trunc", "round", "lround", "llround", "rint",
          "lrint", "llrint", "nearbyint", "fmod", "remainder", "remquo", "copysign", "nan", "nextafter", "fdim",
          "fmax", "fmin", "fma", "frexp", "ldexp", "modf", "scalbn", "scalbln", "sincos", "fabs", "j0", "j1", "jn",
          "y0", "y1", "yn", "erfinv", "erfcinv", "normcdf", "normcdfinv", "rsqrt", "rcbrt", "sinpi", "cospi"})
      for (const char* suffix : {"", "f", "l"}) s.insert(std::string(base) + suffix);
    for (const char* mem : {"memcpy", "memmove", "memset", "memcmp", "bcmp"}) s.insert(mem);
    return s;
  }();
  return names;
}

}  // namespace

bool kernelMayBind(llvm::StringRef name) {
  if (mathNames().count(name.str())) return true;
  // libgcc / compiler-rt arithmetic helpers: __divti3, __udivmodti4, __powisf2, __floattidf, __fixdfti ...
  for (llvm::StringRef prefix : {"__div", "__udiv", "__mod", "__umod", "__mul", "__powi", "__float", "__fix",
                                  "__extend", "__trunc", "__ashl", "__ashr", "__lshr", "__neg", "__clz", "__ctz",
                                  "__popcount", "__bswap", "__cmp", "__ucmp", "__gnu_h2f", "__gnu_f2h"})
    if (name.starts_with(prefix)) return true;
  return false;
}

}  // namespace td::cpu
