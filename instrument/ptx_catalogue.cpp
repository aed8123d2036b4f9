#include "instrument/ptx_catalogue.h"

#include <regex>

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
}  // namespace

std::optional<PtxStatement> parsePtx(const std::string& asmText) {
  std::string s = normalize(asmText);
  std::smatch m;
  static const std::regex cp(R"(^cp\.async\.(ca|cg)\.shared\.global(\.L2::\d+B)? \[\$\d+\], \[\$\d+\], (\d+)(, \$\d+)?;$)");
  if (std::regex_match(s, m, cp)) {
    PtxStatement st{PtxOp::CpAsync};
    st.count = std::stoi(m[3]);
    st.srcSize = m[4].matched;
    if (st.count != 4 && st.count != 8 && st.count != 16) return std::nullopt;
    return st;
  }
  if (s == "cp.async.commit_group;") return PtxStatement{PtxOp::CpAsyncCommit};
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
  static const std::regex mma(R"(^mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32 \{[^}]*\}, \{[^}]*\}, \{[^}]*\}, \{[^}]*\};$)");
  if (std::regex_match(s, mma)) return PtxStatement{PtxOp::MmaF16F32};
  return std::nullopt;
}

std::string ptxLimitation(const std::string& asmText) {
  std::string s = normalize(asmText);
  if (s.find("cp.async.bulk") != std::string::npos) return "Hopper-only (TMA bulk copy)";
  if (s.find("wgmma") != std::string::npos) return "Hopper-only (wgmma)";
  if (s.find("cluster") != std::string::npos) return "Hopper-only (thread-block clusters)";
  if (s.find("setmaxnreg") != std::string::npos) return "Hopper-only (setmaxnreg)";
  return "";
}

}  // namespace td
