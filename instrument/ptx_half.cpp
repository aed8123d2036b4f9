#include "instrument/ptx_half.h"

#include <regex>

namespace td {
namespace {

// The SDK wraps each statement in braces: "{  cvt.f32.f16 $0, $1;}".
std::string unbrace(const std::string& s) {
  std::string t = s;
  if (t.size() >= 2 && t.front() == '{' && t.back() == '}') t = t.substr(1, t.size() - 2);
  size_t b = t.find_first_not_of(' '), e = t.find_last_not_of(' ');
  return b == std::string::npos ? "" : t.substr(b, e - b + 1);
}

PtxStatement halfStatement(HalfScalarKind kind) {
  PtxStatement st{PtxOp::HalfScalar};
  st.mode = static_cast<int>(kind);
  return st;
}

// Halves moved between pairs: one or two words unpacked into named 16-bit registers, then one or two of
// those moved into the result.
std::optional<PtxStatement> shuffle(const std::string& s) {
  std::smatch m;
  static const std::regex re(
      R"(^\.reg \.(b16|f16) (\w+), ?(\w+)(, ?(\w+), ?(\w+))?; mov\.b32 \{\2, ?\3\}, ?\$1;( mov\.b32 \{\5, ?\6\}, ?\$2;)? mov\.b(32|16) \$0, ?(\{(\w+), ?(\w+)\}|(\w+));$)");
  if (!std::regex_match(s, m, re) || m[4].matched != m[7].matched) return std::nullopt;
  auto pick = [&](const std::string& name) {
    for (int g : {2, 3, 5, 6})
      if (m[g].matched && m[g] == name) return (g < 5 ? 1 : 2) * 2 + (g == 3 || g == 6 ? 1 : 0);
    return -1;
  };
  PtxStatement st = halfStatement(HalfScalarKind::Shuffle);
  bool word = m[8] == "32";
  if (word != m[10].matched) return std::nullopt;
  st.half.lanes = word ? 2 : 1;
  st.half.pick[0] = pick(word ? m[10].str() : m[12].str());
  st.half.pick[1] = word ? pick(m[11]) : 0;
  if (st.half.pick[0] < 0 || st.half.pick[1] < 0) return std::nullopt;
  return st;
}

std::optional<PtxStatement> conversionOrPack(const std::string& s) {
  std::smatch m;
  static const std::regex widen(R"(^cvt\.f32\.(f16|bf16) \$0, ?\$1;$)");
  static const std::regex narrow(R"(^cvt\.rn\.(f16|bf16)\.(f32|f64) \$0, ?\$1;$)");
  static const std::regex sign(R"(^(neg|abs)\.(f16|bf16)(x2)? \$0, ?\$1;$)");
  static const std::regex pack(R"(^mov\.b32 \$0, ?\{ ?(0|\$\d+) ?, ?(0|\$\d+) ?\};$)");
  static const std::regex fromInt(R"(^cvt\.rn\.(f16|bf16)\.(s|u)(16|32|64) \$0, ?\$1;$)");
  static const std::regex toInt(R"(^cvt\.r(n|z|m|p)i\.(s|u)(8|16|32|64)\.(f16|bf16) \$0, ?\$1;$)");
  // __low2float / __high2float: one half of a pair, unpacked into PTX registers first
  static const std::regex widenHalfOfPair(
      R"(^\.reg \.f16 low, ?high; mov\.b32 \{low, ?high\}, ?\$1; cvt\.f32\.f16 \$0, (low|high);$)");
  if (std::regex_match(s, m, widen)) return halfStatement(m[1] == "f16" ? HalfScalarKind::WidenF16 : HalfScalarKind::WidenBF16);
  if (std::regex_match(s, m, widenHalfOfPair)) {
    PtxStatement st = halfStatement(HalfScalarKind::WidenF16);
    st.count = m[1] == "high" ? 1 : 0;
    return st;
  }
  if (std::regex_match(s, m, narrow)) return halfStatement(m[1] == "f16" ? HalfScalarKind::NarrowF16 : HalfScalarKind::NarrowBF16);
  // __float2half2_rn / __float2bfloat162_rn: one conversion into both halves of a pair
  static const std::regex narrowToBoth(
      R"(^\.reg \.(f16|b16) (\w+); cvt\.rn\.(f16|bf16)\.f32 \2, ?\$1; mov\.b32 \$0, ?\{\2, ?\2\};$)");
  if (std::regex_match(s, m, narrowToBoth)) {
    PtxStatement st = halfStatement(m[3] == "f16" ? HalfScalarKind::NarrowF16 : HalfScalarKind::NarrowBF16);
    st.count = 2;
    return st;
  }
  if (std::regex_match(s, m, fromInt)) {
    PtxStatement st = halfStatement(HalfScalarKind::IntToHalf);
    st.half.bf16 = m[1] == "bf16";
    st.half.intSigned = m[2] == "s";
    st.half.intBits = std::stoi(m[3]);
    return st;
  }
  if (std::regex_match(s, m, toInt)) {
    PtxStatement st = halfStatement(HalfScalarKind::HalfToInt);
    st.half.rounding = m[1].str()[0];
    st.half.intSigned = m[2] == "s";
    st.half.intBits = std::stoi(m[3]);
    st.half.bf16 = m[4] == "bf16";
    return st;
  }
  if (std::regex_match(s, m, sign)) {
    PtxStatement st = halfStatement(m[1] == "neg" ? HalfScalarKind::FlipSign : HalfScalarKind::ClearSign);
    st.count = m[3].matched ? 2 : 1;
    return st;
  }
  if (std::regex_match(s, m, pack)) {
    PtxStatement st = halfStatement(HalfScalarKind::Pack);
    auto operand = [](const std::string& t) { return t == "0" ? -1 : std::stoi(t.substr(1)); };
    st.valueOperand = operand(m[1]);
    st.addrOperand = operand(m[2]);
    if (st.valueOperand == 0 || st.addrOperand == 0) return std::nullopt;  // $0 is the result
    return st;
  }
  return shuffle(s);
}

PtxStatement arithmetic(HalfArith op, const std::string& type, bool pair) {
  PtxStatement st = halfStatement(HalfScalarKind::Arith);
  st.half.arith = op;
  st.half.bf16 = type == "bf16";
  st.half.lanes = pair ? 2 : 1;
  return st;
}

// The SDK's sm_80 bf16 add, sub and mul: one fma with a constant register (cuda_bf16.hpp): x * 1 + y is
// x + y, x * -1 + y is y - x, x * y + -0 is x * y, each rounded once as the fma rounds: the same results.
std::optional<PtxStatement> fmaWithConstant(const std::string& s) {
  static const std::regex re(
      R"(^\.reg \.b(16|32) (\w+); mov\.b(16|32) \2, ?0[xX]([0-9a-fA-F]+)U?; fma\.rn(\.sat|\.relu)?\.(f16|bf16)(x2)? \$0, ?(\$\d+|\w+), ?(\$\d+|\w+), ?(\$\d+|\w+);$)");
  std::smatch m;
  if (!std::regex_match(s, m, re)) return std::nullopt;
  bool pair = m[7].matched;
  uint32_t c = static_cast<uint32_t>(std::stoul(m[4], nullptr, 16));
  if (m[1] != m[3] || (m[1] == "32") != pair || (pair && (c >> 16) != (c & 0xffff))) return std::nullopt;
  bool bf16 = m[6] == "bf16";
  uint16_t one = bf16 ? 0x3f80 : 0x3c00, minusOne = one | 0x8000, minusZero = 0x8000;
  std::string reg = m[2], ops[3] = {m[8], m[9], m[10]};
  auto number = [](const std::string& op) { return op[0] == '$' ? std::stoi(op.substr(1)) : 0; };
  PtxStatement st;
  uint16_t v = static_cast<uint16_t>(c & 0xffff);
  if (ops[2] == reg && ops[0] != reg && ops[1] != reg && v == minusZero) {
    st = arithmetic(HalfArith::Mul, m[6], pair);
    st.half.src[0] = number(ops[0]), st.half.src[1] = number(ops[1]);
  } else if ((ops[0] == reg) != (ops[1] == reg) && ops[2] != reg && (v == one || v == minusOne)) {
    int x = number(ops[0] == reg ? ops[1] : ops[0]), y = number(ops[2]);
    st = arithmetic(v == one ? HalfArith::Add : HalfArith::Sub, m[6], pair);
    st.half.src[0] = v == one ? x : y, st.half.src[1] = v == one ? y : x;
  } else {
    return std::nullopt;
  }
  if (st.half.src[0] == 0 || st.half.src[1] == 0) return std::nullopt;
  st.half.saturate = m[5] == ".sat";
  st.half.relu = m[5] == ".relu";
  return st;
}

std::optional<PtxStatement> arithmeticOrComparison(const std::string& s) {
  std::smatch m;
  static const std::regex basic(R"(^(add|sub|mul)(\.rn)?(\.sat)?\.(f16|bf16)(x2)? \$0, ?\$1, ?\$2;$)");
  static const std::regex fma(R"(^fma\.rn(\.sat|\.relu)?\.(f16|bf16)(x2)? \$0, ?\$1, ?\$2, ?\$3;$)");
  static const std::regex minmax(R"(^(min|max)(\.NaN)?\.(f16|bf16)(x2)? \$0, ?\$1, ?\$2;$)");
  // __heq & co.: the predicate comes out through selp, as a C++ asm operand cannot be a predicate
  static const std::regex setp(
      R"(^\.reg \.pred (\S+); setp\.(\w+)\.(f16|bf16) \1, ?\$(\d+), ?\$(\d+); selp\.u16 \$0, 1, 0, \1;$)");
  static const std::regex set(R"(^set\.(\w+)\.(f16x2|bf16x2|f16|bf16|u32)\.(f16|bf16)(x2)? \$0, ?\$(\d+), ?\$(\d+);$)");
  if (std::regex_match(s, m, basic)) {
    HalfArith op = m[1] == "add" ? HalfArith::Add : m[1] == "sub" ? HalfArith::Sub : HalfArith::Mul;
    PtxStatement st = arithmetic(op, m[4], m[5].matched);
    st.half.saturate = m[3].matched;
    return st;
  }
  if (auto st = fmaWithConstant(s)) return st;
  if (std::regex_match(s, m, fma)) {
    PtxStatement st = arithmetic(HalfArith::Fma, m[2], m[3].matched);
    st.half.saturate = m[1] == ".sat";
    st.half.relu = m[1] == ".relu";
    return st;
  }
  if (std::regex_match(s, m, minmax)) {
    PtxStatement st = arithmetic(m[1] == "min" ? HalfArith::Min : HalfArith::Max, m[3], m[4].matched);
    st.half.propagateNaN = m[2].matched;
    return st;
  }
  // The SDK's sm_80 bf16 comparison: both halves made f32 (a bf16 is an f32's high half), compared as f32.
  static const std::regex widenedSet(
      R"(^\.reg \.b32 (\w+), ?(\w+); mov\.b32 \1, ?\{ ?0 ?, ?\$(\d+) ?\}; mov\.b32 \2, ?\{ ?0 ?, ?\$(\d+) ?\}; set\.(\w+)\.f32\.f32 \$0, ?\1, ?\2;$)");
  std::string cmp, type;
  int a = 0, b = 0;
  bool pair = false;
  CompareResult result = CompareResult::Bool;
  if (std::regex_match(s, m, widenedSet)) {
    cmp = m[5], type = "bf16", a = std::stoi(m[3]), b = std::stoi(m[4]);
    result = CompareResult::Float;
  } else if (std::regex_match(s, m, setp)) {
    cmp = m[2], type = m[3], a = std::stoi(m[4]), b = std::stoi(m[5]);
  } else if (std::regex_match(s, m, set)) {
    cmp = m[1], type = m[3], pair = m[4].matched, a = std::stoi(m[5]), b = std::stoi(m[6]);
    std::string dest = m[2];
    if (dest == "u32") result = CompareResult::Mask;
    else if (dest == type + (pair ? "x2" : "")) result = CompareResult::One;
    else return std::nullopt;
    if (result == CompareResult::Mask && !pair) return std::nullopt;
  } else {
    return std::nullopt;
  }
  static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge", "num", "nan"};
  PtxStatement st = halfStatement(HalfScalarKind::Compare);
  bool known = false;
  for (int i = 0; i < 8; ++i) {
    std::string n = names[i];
    if (cmp == n || (i < 6 && cmp == n + "u")) {
      st.half.compare = static_cast<HalfCompare>(i);
      st.half.unordered = cmp.size() == n.size() + 1;
      known = true;
    }
  }
  if (!known || a == 0 || b == 0) return std::nullopt;
  st.half.result = result;
  st.half.bf16 = type == "bf16";
  st.half.lanes = pair ? 2 : 1;
  st.half.src[0] = a;
  st.half.src[1] = b;
  return st;
}

}  // namespace

std::optional<PtxStatement> parseHalfScalar(const std::string& normalized) {
  std::string s = unbrace(normalized);
  if (auto st = conversionOrPack(s)) return st;
  return arithmeticOrComparison(s);
}

}  // namespace td
