// Integer expressions of the bundle manifest: literals, parameters, + - * / %, parentheses,
// cdiv(a, b), min(a, b), max(a, b). '/' rounds toward zero, as in C.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace td {

using ParamMap = std::map<std::string, int64_t>;

struct ExprError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Evaluates `text` with `params`; throws ExprError naming the problem (unknown parameter, syntax,
// division by zero, overflow).
int64_t evalExpr(const std::string& text, const ParamMap& params);

}  // namespace td
