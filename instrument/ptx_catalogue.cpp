#include "instrument/ptx_catalogue.h"

#include <map>
#include <regex>

#include "instrument/ptx_half.h"

namespace td {

namespace {
std::string normalize(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == '\t' || c == ' ') { space = true; continue; }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// The statement's main instruction: the first that is not a register declaration, a label or a move
// (moves only pack and unpack operands around the real work), e.g. "add.f16" in the SDK's __hadd.
std::string mainInstruction(const std::string& normalized) {
  std::string first, firstMove;
  std::string t;
  for (char c : normalized) t += (c == '{' || c == '}') ? ' ' : c;
  size_t start = 0;
  while (start < t.size()) {
    size_t end = t.find(';', start);
    std::string part = t.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? t.size() : end + 1;
    size_t b = part.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    part = part.substr(b);
    if (part[0] == '@') part = part.substr(part.find(' ') == std::string::npos ? part.size() : part.find(' ') + 1);
    std::string op = part.substr(0, part.find(' '));
    if (op.empty() || op[0] == '.' || op.back() == ':') continue;
    if (op.rfind("mov.", 0) == 0) {
      if (firstMove.empty()) firstMove = op;
      continue;
    }
    return op;
  }
  return firstMove;
}

bool hasHalfType(const std::string& op) {
  return op.find(".f16") != std::string::npos || op.find(".bf16") != std::string::npos;
}

// Instruction families the CPU executor knows and does not emulate (yet), named so the refusal says what
// the statement is; "" for one nobody has classified.
std::string notEmulatedFamily(const std::string& normalized) {
  std::string op = mainInstruction(normalized);
  auto is = [&](const char* prefix) { return op.rfind(prefix, 0) == 0; };
  if (op.empty()) return "";
  for (const char* a : {"add.", "sub.", "mul.", "fma.", "min.", "max.", "neg.", "abs.", "div.", "rcp.", "sqrt.",
                        "rsqrt.", "ex2.", "lg2.", "sin.", "cos.", "tanh.", "set.", "setp.", "selp.", "testp."})
    if (is(a))
      return std::string(hasHalfType(op)                   ? "half/bfloat16"
                         : op.find(".f") != std::string::npos ? "floating-point"
                                                                : "integer") +
             " arithmetic or comparison written as PTX (" + op + "), not emulated";
  if (is("cvt."))
    return "a conversion this executor does not emulate (" + op +
           "; emulated: f32 <-> f16/bf16 at round-to-nearest, f64 -> f16/bf16, and the x2 packs; integers -> "
           "f16/bf16 at round-to-nearest and back at any integer rounding; f32 pairs -> e4m3x2/e5m2x2 satfinite and "
           "e4m3x2/e5m2x2 -> f16x2)";
  if (is("ld.global.") || is("st.global.") || is("ld.volatile") || is("st.volatile"))
    return "a cache-hinted global load or store (" + op + "), not emulated";
  for (const char* a : {"tanh.approx", "ex2.approx", "lg2.approx", "rcp.approx", "rsqrt.approx", "sqrt.approx",
                        "div.approx", "sin.approx", "cos.approx"})
    if (is(a)) return "an approximate math instruction (" + op + "), not emulated";
  if (is("atom.") || is("red.")) return "an atomic written as PTX (" + op + "), not emulated";
  if (is("shfl.") || is("vote.") || is("match.") || is("redux."))
    return "a warp collective in an operand form the catalogue does not know (" + op + ")";
  if (is("brkpt") || is("trap"))
    return "a trap (" + op + "): CUTLASS and TileLang put one where a code path is not compiled for the "
           "architecture, e.g. fp8 mma.sync below sm_89 — try a newer --tilelang-arch";
  if (is("mma.sp")) return "a sparse matrix multiply (" + op + ", 2:4 structured sparsity), not emulated";
  if (is("mma.") && op.find("m8n8k4") != std::string::npos)
    return "Volta's quad-pair matrix multiply (" + op + "), not emulated";
  if (is("mma."))
    return "a matrix-multiply form the catalogue does not emulate (" + op +
           "; emulated: m16n8k8/k16 f16/bf16/tf32, m16n8k16/k32 s8/u8, m16n8k32/k64 s4/u4, m16n8k32 e4m3/e5m2)";
  if (is("mbarrier."))
    return "an mbarrier form the catalogue does not emulate (" + op +
           "; emulated: init, arrive, the parity waits and cp.async arrivals that TileLang emits)";
  if (is("mov.")) return "register moves that split or join 16-bit halves (" + op + "), not emulated";
  if (is("and.") || is("or.") || is("xor.") || is("shf.") || is("lop3.") || is("prmt."))
    return "bit manipulation written as PTX (" + op + "), not emulated";
  return "";
}

}  // namespace

std::optional<PtxStatement> parsePtx(const std::string& asmText) {
  std::string s = normalize(asmText);
  std::smatch m;
  // TileLang passes the size as an "n" operand ($2) and the zero-fill size as $3; CUTLASS writes literals.
  static const std::regex cp(
      R"(^cp\.async\.(ca|cg)\.shared\.global(\.L2::\d+B)? \[\$0\], \[\$1\], (\d+|\$(\d+))(, \$(\d+))?;$)");
  if (std::regex_match(s, m, cp)) {
    PtxStatement st{PtxOp::CpAsync};
    if (m[4].matched) st.sizeOperand = std::stoi(m[4]);
    else st.count = std::stoi(m[3]);
    if (m[6].matched) {
      st.srcSize = true;
      st.srcSizeOperand = std::stoi(m[6]);
    }
    if (st.sizeOperand < 0 && st.count != 4 && st.count != 8 && st.count != 16) return std::nullopt;
    return st;
  }
  if (s == "cp.async.commit_group;") return PtxStatement{PtxOp::CpAsyncCommit};
  if (s == "td.cp.async.commit_ticket $0;" || s == "td.cp.async.wait_ticket $0;") {
    PtxStatement st{s == "td.cp.async.commit_ticket $0;" ? PtxOp::CpAsyncCommit : PtxOp::CpAsyncWait};
    st.ticket = true;
    return st;
  }
  if (s == "cp.async.wait_all;") {
    PtxStatement st{PtxOp::CpAsyncWait};
    st.waitAll = true;
    return st;
  }
  static const std::regex wait(R"(^cp\.async\.wait_group (\d+|\$\d+);$)");
  if (std::regex_match(s, m, wait)) {
    PtxStatement st{PtxOp::CpAsyncWait};
    st.count = m[1].str()[0] == '$' ? -1 : std::stoi(m[1]);
    return st;
  }
  static const std::regex ldm(
      R"(^ldmatrix\.sync\.aligned\.(m8n8\.)?x(1|2|4)(\.trans)?(\.m8n8)?\.shared(::cta)?\.b16 \{[^}]*\}, \[\$\d+\];$)");
  if (std::regex_match(s, m, ldm)) {
    PtxStatement st{PtxOp::LdMatrix};
    st.count = std::stoi(m[2]);
    st.trans = m[3].matched;
    return st;
  }
  static const std::regex mma(
      R"(^mma\.sync\.aligned\.m16n8k(8|16)\.row\.col\.(f32|f16)\.(f16|bf16|tf32)\.(f16|bf16|tf32)\.(f32|f16) \{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\};$)");
  // Integer tensor-core products: s8/u8 inputs (m16n8k16, m16n8k32) or s4/u4 inputs (m16n8k32, m16n8k64: the
  // dequantised int4 GEMMs), s32 accumulators, wrapping or .satfinite (saturating at the int32 range).
  static const std::regex mmaInt(
      R"(^mma\.sync\.aligned\.m16n8k(16|32|64)\.row\.col(\.satfinite)?\.s32\.(s8|u8|s4|u4)\.(s8|u8|s4|u4)\.s32 \{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\};$)");
  // fp8 tensor-core products (sm_89+): e4m3/e5m2 inputs, f32 or f16 accumulators, m16n8k32.
  static const std::regex mmaFp8(
      R"(^mma\.sync\.aligned\.m16n8k32\.row\.col\.(f32|f16)\.(e4m3|e5m2)\.(e4m3|e5m2)\.(f32|f16) \{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\};$)");
  if (std::regex_match(s, m, mmaFp8)) {
    if (m[1] != m[4]) return std::nullopt;
    PtxStatement st{PtxOp::Mma};
    st.k = 32;
    st.fp8 = true;
    st.f16Accum = m[1] == "f16";
    st.aUnsigned = m[2] == "e5m2";  // for fp8: the operand is E5M2 (else E4M3)
    st.bUnsigned = m[3] == "e5m2";
    return st;
  }
  if (std::regex_match(s, m, mmaInt)) {
    PtxStatement st{PtxOp::Mma};
    st.k = std::stoi(m[1]);
    st.integer = true;
    st.satfinite = m[2].matched;
    st.elementBits = m[3].str()[1] == '4' ? 4 : 8;
    if ((m[4].str()[1] == '4' ? 4 : 8) != st.elementBits) return std::nullopt;
    if (st.elementBits == 8 ? st.k == 64 : st.k == 16) return std::nullopt;  // k16/k32 for 8 bits, k32/k64 for 4
    st.aUnsigned = m[3].str()[0] == 'u';
    st.bUnsigned = m[4].str()[0] == 'u';
    return st;
  }
  if (std::regex_match(s, m, mma)) {
    PtxStatement st{PtxOp::Mma};
    st.k = std::stoi(m[1]);
    st.type = m[3] == "f16" ? MmaType::F16 : m[3] == "bf16" ? MmaType::BF16 : MmaType::TF32;
    st.f16Accum = m[2] == "f16";
    bool legal = m[3] == m[4] && m[2] == m[5] && (st.type == MmaType::F16 || !st.f16Accum) &&
                 (st.type != MmaType::TF32 || st.k == 8);
    if (!legal) return std::nullopt;
    return st;
  }
  static const std::regex mfma(
      R"(^td\.mfma\.(f32|i32)\.(16x16|32x32)x(4|8|16|32)\.(f16|bf16|f32|tf32|i8|fp8|bf8) \{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\}, ?\{[^}]*\};$)");
  if (std::regex_match(s, m, mfma)) {
    PtxStatement st{PtxOp::Mfma};
    st.k = m[2] == "32x32" ? 32 : 16;
    st.count = std::stoi(m[3]);
    std::string in = m[4];
    st.type = in == "bf16" ? MmaType::BF16 : in == "f32" ? MmaType::F32 : in == "tf32" ? MmaType::TF32 : MmaType::F16;
    st.integer = in == "i8";
    st.fp8 = in == "fp8" || in == "bf8";
    st.aUnsigned = st.bUnsigned = in == "bf8";
    // K per input type: AMD's 16x16x4 f32, 16x16x16 f16/bf16, 16x16x32 i8/fp8, 32x32x8 f16/bf16; MetaX's
    // 16x16x8 tf32, 16x16x16 i8
    bool wide = st.k == 32 && !st.integer && !st.fp8 && (st.type == MmaType::F16 || st.type == MmaType::BF16);
    bool legal = st.k == 32 ? wide && st.count == 8
                 : st.integer ? st.count == 16 || st.count == 32
                 : st.fp8   ? st.count == 32
                 : st.type == MmaType::F32  ? st.count == 4
                 : st.type == MmaType::TF32 ? st.count == 8
                                            : st.count == 16;
    if (!legal || (m[1] == "i32") != st.integer) return std::nullopt;
    return st;
  }
  static const std::regex stm(
      R"(^stmatrix\.sync\.aligned\.(m8n8\.)?x(1|2|4)(\.trans)?(\.m8n8)?\.shared(::cta)?\.b16 \[\$\d+\], \{[^}]*\};$)");
  if (std::regex_match(s, m, stm)) {
    PtxStatement st{PtxOp::StMatrix};
    st.count = std::stoi(m[2]);
    st.trans = m[3].matched;
    return st;
  }
  static const std::regex shfl(R"(^shfl\.sync\.(idx|up|down|bfly)\.b32 \$\d+, \$\d+, \$\d+, \$\d+, \$\d+;$)");
  if (std::regex_match(s, m, shfl)) {
    PtxStatement st{PtxOp::Shfl};
    st.mode = m[1] == "idx" ? 0 : m[1] == "up" ? 1 : m[1] == "down" ? 2 : 3;
    return st;
  }
  static const std::regex redux(R"(^redux\.sync\.(add|min|max|and|or|xor)\.(s32|u32|b32) \$\d+, \$\d+, \$\d+;$)");
  if (std::regex_match(s, m, redux)) {
    PtxStatement st{PtxOp::Redux};
    static const char* ops[] = {"add", "min", "max", "and", "or", "xor"};
    for (int i = 0; i < 6; ++i)
      if (m[1] == ops[i]) st.mode = i;
    st.isSigned = m[2] == "s32";
    return st;
  }
  static const std::regex bar(R"(^(bar\.sync|barrier\.sync|barrier\.sync\.aligned|bar\.arrive|barrier\.arrive) (\$\d+|\d+)(, (\$\d+|\d+))?;$)");
  if (std::regex_match(s, m, bar)) {
    PtxStatement st{PtxOp::Barrier};
    st.arrive = m[1].str().find("arrive") != std::string::npos;
    st.hasCount = m[3].matched;
    // Immediate ids and counts are kept here; operands come at run time (-1).
    st.count = m[2].str()[0] == '$' ? -1 : std::stoi(m[2]);
    st.mode = !st.hasCount ? 0 : m[4].str()[0] == '$' ? -1 : std::stoi(m[4]);
    return st;
  }
  // The Ampere mbarrier subset, as TileLang's barrier.h writes it (shared::cta spelt either way).
  static const std::regex minit(R"(^mbarrier\.init\.shared(::cta)?\.b64 \[\$(\d+)\], \$(\d+);$)");
  if (std::regex_match(s, m, minit)) {
    PtxStatement st{PtxOp::MbarInit};
    st.addrOperand = std::stoi(m[2]);
    st.valueOperand = std::stoi(m[3]);
    return st;
  }
  static const std::regex marrive(R"(^mbarrier\.arrive\.shared(::cta)?\.b64 _, \[\$(\d+)\];$)");
  if (std::regex_match(s, m, marrive)) {
    PtxStatement st{PtxOp::MbarArrive};
    st.addrOperand = std::stoi(m[2]);
    return st;
  }
  static const std::regex mtry(
      R"(^\{ \.reg \.pred (\w+); mbarrier\.(try|test)_wait\.parity\.shared(::cta)?\.b64 \1, \[\$(\d+)\], \$(\d+)(, \$\d+)?; selp\.b32 \$0, 1, 0, \1; \}$)");
  if (std::regex_match(s, m, mtry)) {
    PtxStatement st{PtxOp::MbarTryWait};
    st.addrOperand = std::stoi(m[4]);
    st.valueOperand = std::stoi(m[5]);
    return st;
  }
  static const std::regex mwait(
      R"(^\{ \.reg \.pred (\w+); (\w+): mbarrier\.(try|test)_wait\.parity\.shared(::cta)?\.b64 \1, \[\$(\d+)\], \$(\d+)(, \$\d+)?; @\1 bra(\.uni)? (\w+); (nanosleep\.u32 \d+; )?bra(\.uni)? \2; \9: \}$)");
  if (std::regex_match(s, m, mwait)) {
    PtxStatement st{PtxOp::MbarWait};
    st.addrOperand = std::stoi(m[5]);
    st.valueOperand = std::stoi(m[6]);
    return st;
  }
  static const std::regex cparrive(R"(^\{? ?cp\.async\.mbarrier\.arrive(\.noinc)?\.shared(::cta)?\.b64 \[\$(\d+)\]; ?\}?$)");
  if (std::regex_match(s, m, cparrive)) {
    PtxStatement st{PtxOp::CpAsyncMbarArrive};
    st.noinc = m[1].matched;
    st.addrOperand = std::stoi(m[3]);
    return st;
  }
  // Votes need a predicate, which a C++ asm operand cannot be: setp makes it from an integer operand.
  static const std::regex ballot(
      R"(^\{ \.reg \.pred (\w+); setp\.ne\.(b|u|s)32 \1, \$(\d+), 0; vote\.sync\.ballot\.b32 \$0, \1, \$(\d+); \}$)");
  if (std::regex_match(s, m, ballot)) {
    PtxStatement st{PtxOp::Vote};
    st.mode = 3;
    st.valueOperand = std::stoi(m[3]);
    st.sizeOperand = std::stoi(m[4]);  // the member mask
    return st;
  }
  static const std::regex vote(
      R"(^\{ \.reg \.pred (\w+), (\w+); setp\.ne\.(b|u|s)32 \1, \$(\d+), 0; vote\.sync\.(all|any|uni)\.pred \2, \1, \$(\d+); selp\.(b|u|s)32 \$0, 1, 0, \2; \}$)");
  if (std::regex_match(s, m, vote)) {
    PtxStatement st{PtxOp::Vote};
    st.mode = m[5] == "all" ? 0 : m[5] == "any" ? 1 : 2;
    st.valueOperand = std::stoi(m[4]);
    st.sizeOperand = std::stoi(m[6]);
    return st;
  }
  static const std::regex cvtPack(R"(^\{? ?cvt\.rn\.(f16|bf16)x2\.f32 \$0, \$(\d+), \$(\d+); ?\}?$)");
  if (std::regex_match(s, m, cvtPack)) {
    PtxStatement st{PtxOp::CvtPack};
    st.k = m[1] == "bf16" ? 1 : 0;
    st.valueOperand = std::stoi(m[2]);
    st.mode = std::stoi(m[3]);
    return st;
  }
  static const std::regex lop3(
      R"(^\{? ?lop3\.b32 \$0, \$(\d+), \$(\d+), \$(\d+), (\$(\d+)|0[xX]([0-9a-fA-F]+)|(\d+)); ?\}?$)");
  if (std::regex_match(s, m, lop3)) {
    PtxStatement st{PtxOp::Lop3};
    for (int k = 0; k < 3; ++k) st.operands[k] = std::stoi(m[k + 1]);
    if (m[5].matched) st.lutOperand = std::stoi(m[5]);
    else st.immediate = m[6].matched ? std::stoul(m[6], nullptr, 16) : std::stoul(m[7]);
    if (st.lutOperand < 0 && st.immediate > 0xff) return std::nullopt;
    return st;
  }
  static const std::regex dp4a(R"(^\{? ?dp4a\.(s32|u32)\.(s32|u32) \$0, ?\$(\d+), ?\$(\d+), ?\$(\d+); ?\}?$)");
  if (std::regex_match(s, m, dp4a)) {
    PtxStatement st{PtxOp::Dp4a};
    st.aUnsigned = m[1] == "u32";
    st.bUnsigned = m[2] == "u32";
    for (int k = 0; k < 3; ++k) st.operands[k] = std::stoi(m[k + 3]);
    return st;
  }
  static const std::regex toFp8(
      R"(^\{? ?cvt\.rn\.satfinite(\.relu)?\.(e4m3|e5m2)x2\.f32 \$0, \$(\d+), \$(\d+); ?\}?$)");
  if (std::regex_match(s, m, toFp8)) {
    PtxStatement st{PtxOp::CvtToFp8x2};
    st.relu = m[1].matched;
    st.aUnsigned = m[2] == "e5m2";
    st.operands[0] = std::stoi(m[3]);
    st.operands[1] = std::stoi(m[4]);
    return st;
  }
  static const std::regex fromFp8(R"(^\{? ?cvt\.rn\.f16x2\.(e4m3|e5m2)x2 \$0, \$(\d+); ?\}?$)");
  if (std::regex_match(s, m, fromFp8)) {
    PtxStatement st{PtxOp::CvtFromFp8x2};
    st.aUnsigned = m[1] == "e5m2";
    st.operands[0] = std::stoi(m[2]);
    return st;
  }
  static const std::regex scopedLoad(
      R"(^\{? ?ld\.(?:(relaxed|acquire)\.(?:cta|gpu|sys)|volatile)(\.global)?\.(b16|b32|b64|s16|s32|s64|u16|u32|u64|f32|f64) \$0, ?\[\$1\]; ?\}?$)");
  if (std::regex_match(s, m, scopedLoad)) {
    PtxStatement st{PtxOp::ScopedLoad};
    st.acquire = m[1] == "acquire";
    st.valueType = m[3];
    return st;
  }
  static const std::regex scopedStore(
      R"(^\{? ?st\.(?:(relaxed|release)\.(?:cta|gpu|sys)|volatile)(\.global)?\.(b16|b32|b64|s16|s32|s64|u16|u32|u64|f32|f64) \[\$0\], ?\$1; ?\}?$)");
  if (std::regex_match(s, m, scopedStore)) {
    PtxStatement st{PtxOp::ScopedStore};
    st.acquire = m[1] == "release";
    st.valueType = m[3];
    return st;
  }
  static const std::regex atom(
      R"(^\{? ?atom((?:\.(?:relaxed|acquire|release|acq_rel|cta|gpu|sys|global))*)\.(add|cas|exch|min|max|and|or|xor)((?:\.(?:relaxed|acquire|release|acq_rel|cta|gpu|sys|global|noftz))*)\.(f32|f64|s32|u32|s64|u64|b32|b64|f16|f16x2|bf16|bf16x2) \$0, ?\[\$1\], ?\$2(, ?\$3)?; ?\}?$)");
  if (std::regex_match(s, m, atom)) {
    static const std::map<std::string, ScopedAtomicOp> ops = {
        {"add", ScopedAtomicOp::Add}, {"cas", ScopedAtomicOp::Cas}, {"exch", ScopedAtomicOp::Exch},
        {"min", ScopedAtomicOp::Min}, {"max", ScopedAtomicOp::Max}, {"and", ScopedAtomicOp::And},
        {"or", ScopedAtomicOp::Or},   {"xor", ScopedAtomicOp::Xor}};
    PtxStatement st{PtxOp::ScopedAtomic};
    std::string qualifiers = m[1].str() + m[3].str();
    st.acquire = qualifiers.find("acq") != std::string::npos || qualifiers.find("release") != std::string::npos;
    st.atomic = ops.at(m[2]);
    st.valueType = m[4];
    char t = st.valueType.rfind("bf", 0) == 0 ? 'h' : st.valueType[0];  // b(its), s, u, f, h(alf-like bf16)
    bool halfType = st.valueType.find("16") != std::string::npos;
    bool add = st.atomic == ScopedAtomicOp::Add, minMax = st.atomic == ScopedAtomicOp::Min || st.atomic == ScopedAtomicOp::Max;
    if (m[5].matched != (st.atomic == ScopedAtomicOp::Cas)) return std::nullopt;  // cas alone takes two values
    // The PTX ISA's type rules: add on integers and floats, min/max on integers, the bitwise operations, exch
    // and cas on bit types; .noftz on the 16-bit float adds and nothing else.
    bool typeFits = add ? t != 'b' : minMax ? (t == 's' || t == 'u') : t == 'b';
    if (!typeFits || (qualifiers.find("noftz") != std::string::npos) != (add && halfType)) return std::nullopt;
    return st;
  }
  static const std::regex floatWidth(R"(^\{? ?cvt\.(rn\.f32\.f64|f64\.f32) \$0, ?\$1; ?\}?$)");
  if (std::regex_match(s, m, floatWidth)) return PtxStatement{PtxOp::CvtFloatWidth};
  static const std::regex fence(R"(^\{? ?fence\.(sc|acq_rel|acquire|release)\.(cta|gpu|sys); ?\}?$)");
  if (std::regex_match(s, m, fence)) return PtxStatement{PtxOp::Fence};
  if (auto st = parseHalfScalar(s)) return st;
  return std::nullopt;
}

std::string ptxLimitation(const std::string& asmText) {
  std::string s = normalize(asmText);
  if (s.find("cp.async.bulk") != std::string::npos) return "Hopper-only (TMA bulk copy)";
  if (s.find("cp.reduce.async.bulk") != std::string::npos) return "Hopper-only (TMA bulk reduction)";
  if (s.find("tensormap") != std::string::npos) return "Hopper-only (TMA descriptor prefetch or update)";
  if (s.find("tcgen05") != std::string::npos) return "Blackwell-only (tcgen05 tensor memory and MMA)";
  if (s.find("st.bulk") != std::string::npos) return "Blackwell-only (st.bulk shared-memory initialisation)";
  if (s.find("wgmma") != std::string::npos) return "Hopper-only (wgmma)";
  if (s.find("cluster") != std::string::npos) return "Hopper-only (thread-block clusters)";
  if (s.find("setmaxnreg") != std::string::npos) return "Hopper-only (setmaxnreg)";
  if (s.find("expect_tx") != std::string::npos) return "Hopper-only (mbarrier transaction counts)";
  if (s.find("fence.proxy.async") != std::string::npos) return "Hopper-only (async proxy fence)";
  return notEmulatedFamily(s);
}

}  // namespace td
