#include "frontend/expr.h"

#include <cctype>
#include <climits>
#include <fmt/format.h>

#include "frontend/text_bounds.h"

namespace td {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const ParamMap& params) : s_(text), params_(params) {}

  int64_t parse() {
    if (s_.size() > kMaxLength) fail(fmt::format("longer than {} characters", kMaxLength));
    int64_t v = parseSum();
    skipSpace();
    if (pos_ != s_.size()) fail(fmt::format("unexpected '{}'", s_.substr(pos_, 1)));
    return v;
  }

 private:
  // Bounds that keep a hostile manifest from exhausting the stack (the parser recurses per nesting).
  static constexpr size_t kMaxLength = 4096;
  static constexpr int kMaxDepth = 256;

  [[noreturn]] void fail(const std::string& what) const {
    throw ExprError(fmt::format("in expression \"{}\": {}", quotable(s_), what));
  }
  // One level of nesting (a parenthesis, a call, a unary sign) for as long as it lives.
  struct Nest {
    Parser& p;
    explicit Nest(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth) p.fail(fmt::format("nested deeper than {} levels", kMaxDepth));
    }
    ~Nest() { --p.depth_; }
  };
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) { ++pos_; return true; }
    return false;
  }
  template <class Op>
  int64_t checked(Op op, int64_t a, int64_t b) const {
    int64_t r;
    if (op(a, b, &r)) fail("integer overflow");
    return r;
  }
  static bool add(int64_t a, int64_t b, int64_t* r) { return __builtin_add_overflow(a, b, r); }
  static bool sub(int64_t a, int64_t b, int64_t* r) { return __builtin_sub_overflow(a, b, r); }
  static bool mul(int64_t a, int64_t b, int64_t* r) { return __builtin_mul_overflow(a, b, r); }
  int64_t parseSum() {
    int64_t v = parseProduct();
    for (;;) {
      if (eat('+')) v = checked(add, v, parseProduct());
      else if (eat('-')) v = checked(sub, v, parseProduct());
      else return v;
    }
  }
  int64_t parseProduct() {
    int64_t v = parseUnary();
    for (;;) {
      if (eat('*')) v = checked(mul, v, parseUnary());
      else if (eat('/')) v = divide(v, parseUnary(), false);
      else if (eat('%')) v = divide(v, parseUnary(), true);
      else return v;
    }
  }
  // C's / and %, with the two cases C leaves undefined as input errors.
  int64_t divide(int64_t a, int64_t b, bool remainder) const {
    if (b == 0) fail("division by zero");
    if (a == INT64_MIN && b == -1) fail("integer overflow");
    return remainder ? a % b : a / b;
  }
  int64_t parseUnary() {
    Nest nest(*this);
    if (eat('-')) return checked(sub, 0, parseUnary());
    if (eat('+')) return parseUnary();
    return parsePrimary();
  }
  int64_t parsePrimary() {
    skipSpace();
    if (eat('(')) {
      Nest nest(*this);
      int64_t v = parseSum();
      if (!eat(')')) fail("missing ')'");
      return v;
    }
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        int64_t r;
        if (__builtin_mul_overflow(v, 10, &r) || __builtin_add_overflow(r, s_[pos_] - '0', &v)) fail("integer overflow");
        ++pos_;
      }
      return v;
    }
    if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      std::string name = s_.substr(start, pos_ - start);
      if (eat('(')) return parseCall(name);
      auto it = params_.find(name);
      if (it == params_.end()) fail(fmt::format("unknown parameter '{}'", name));
      return it->second;
    }
    fail(pos_ < s_.size() ? fmt::format("unexpected '{}'", s_.substr(pos_, 1)) : "unexpected end");
  }
  int64_t parseCall(const std::string& name) {
    Nest nest(*this);
    int64_t a = parseSum();
    if (!eat(',')) fail(fmt::format("{}() takes two arguments", name));
    int64_t b = parseSum();
    if (!eat(')')) fail("missing ')'");
    if (name == "cdiv") {
      if (b == 0) fail("division by zero in cdiv");
      int64_t q = divide(a, b, false);
      return q + ((a % b != 0) && ((a < 0) == (b < 0)) ? 1 : 0);
    }
    if (name == "min") return a < b ? a : b;
    if (name == "max") return a > b ? a : b;
    fail(fmt::format("unknown function '{}' (known: cdiv, min, max)", name));
  }

  const std::string& s_;
  const ParamMap& params_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

int64_t evalExpr(const std::string& text, const ParamMap& params) { return Parser(text, params).parse(); }

}  // namespace td
