#include "checks/numerics/shadow_math.h"

#include <llvm/IR/Intrinsics.h>

namespace td {

namespace {

// libdevice's float functions with a double twin of the same name less the 'f' ("__nv_expf" -> "__nv_exp");
// the fast-math forms ("__nv_fast_expf") are measured against the exact double function.
bool isLibdeviceFloatMath(llvm::StringRef base) {
  static const char* const names[] = {
      "exp",  "exp2",  "exp10", "expm1", "log",  "log2",  "log10", "log1p", "pow",   "sqrt", "rsqrt",
      "cbrt", "sin",   "cos",   "tan",   "sinh", "cosh",  "tanh",  "asin",  "acos",  "atan", "atan2",
      "erf",  "erfc",  "fma",   "fabs",  "fmin", "fmax",  "floor", "ceil",  "trunc", "round", "rint",
      "fmod", "hypot", "ldexp", "sinpi", "cospi", "asinh", "acosh", "atanh", "fdim", "nearbyint"};
  for (const char* n : names)
    if (base == n) return true;
  return false;
}

}  // namespace

bool mathTwinOf(llvm::StringRef callee, unsigned id, MathTwin& out) {
  using namespace llvm;
  switch (id) {
    case Intrinsic::fma: out = {"fma", "", id}; return true;
    case Intrinsic::fmuladd: out = {"fma", "", Intrinsic::fma}; return true;
    case Intrinsic::sqrt: out = {"sqrt", "", id}; return true;
    case Intrinsic::fabs: out = {"fabs", "", id}; return true;
    case Intrinsic::minnum: out = {"fmin", "", id}; return true;
    case Intrinsic::maxnum: out = {"fmax", "", id}; return true;
    case Intrinsic::minimum: out = {"fminimum", "", id}; return true;
    case Intrinsic::maximum: out = {"fmaximum", "", id}; return true;
    case Intrinsic::copysign: out = {"copysign", "", id}; return true;
    case Intrinsic::floor: out = {"floor", "", id}; return true;
    case Intrinsic::ceil: out = {"ceil", "", id}; return true;
    case Intrinsic::trunc: out = {"trunc", "", id}; return true;
    case Intrinsic::rint: out = {"rint", "", id}; return true;
    case Intrinsic::nearbyint: out = {"nearbyint", "", id}; return true;
    case Intrinsic::round: out = {"round", "", id}; return true;
    case Intrinsic::roundeven: out = {"roundeven", "", id}; return true;
    // Transcendental intrinsics have no NVPTX lowering in double: libdevice's functions serve both executors.
    case Intrinsic::exp: out = {"exp", "__nv_exp"}; return true;
    case Intrinsic::exp2: out = {"exp2", "__nv_exp2"}; return true;
    case Intrinsic::log: out = {"log", "__nv_log"}; return true;
    case Intrinsic::log2: out = {"log2", "__nv_log2"}; return true;
    case Intrinsic::log10: out = {"log10", "__nv_log10"}; return true;
    case Intrinsic::sin: out = {"sin", "__nv_sin"}; return true;
    case Intrinsic::cos: out = {"cos", "__nv_cos"}; return true;
    case Intrinsic::pow: out = {"pow", "__nv_pow"}; return true;
    default: break;
  }
  if (!callee.consume_front("__nv_")) return false;
  if (callee == "fdividef" || callee == "fast_fdividef") {
    out = {"division", "", 0, true};
    return true;
  }
  std::string shown = callee.str();
  callee.consume_front("fast_");
  if (!callee.consume_back("f") || !isLibdeviceFloatMath(callee)) return false;
  out = {shown, "__nv_" + callee.str()};
  return true;
}

}  // namespace td
