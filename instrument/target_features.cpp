#include "instrument/target_features.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <cctype>
#include <set>

namespace td {

namespace {

// The feature an inline-PTX statement or an intrinsic uses; "" for none of them.
std::string featureOf(const std::string& text) {
  auto has = [&](const char* s) { return text.find(s) != std::string::npos; };
  if (has("cp.async.bulk") || has("cp.reduce.async.bulk") || has("prefetch.tensor") || has("cp_async_bulk")) return "tma";
  if (has("wgmma")) return "wgmma";
  if (has("mbarrier")) return "mbarrier";
  if (has("barrier.cluster") || has("%cluster") || has("sreg.cluster") || has("mapa") || has("cluster_ctarank"))
    return "cluster";
  // mma with an f16 result: mma.sync.aligned.<shape>.<layouts>.f16.<a>.<b>.f16
  if (text.rfind("mma", 0) == 0 || has("\tmma") || has(" mma") || has("\nmma"))
    if (has(".row.col.f16.") || has(".col.row.f16.") || has(".row.row.f16.") || has(".col.col.f16.")) return "fp16-accumulate-mma";
  return "";
}

// The statement of a (possibly multi-statement) asm string that uses `feature`, trimmed.
std::string statementOf(const std::string& text, const std::string& feature) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find_first_of(";\n", start);
    if (end == std::string::npos) end = text.size();
    std::string piece = text.substr(start, end - start);
    size_t first = piece.find_first_not_of(" \t{}");
    if (first != std::string::npos) {
      piece = piece.substr(first);
      if (featureOf(piece) == feature) return piece;
    }
    start = end + 1;
  }
  return text.substr(0, 80);
}

// LLVM writes an asm string's operands as $N; the user wrote %N.
std::string asWritten(std::string s) {
  for (size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '$' && std::isdigit(static_cast<unsigned char>(s[i + 1]))) s[i] = '%';
  return s;
}

}  // namespace

std::vector<FeatureUse> hardwareFeaturesUsed(const llvm::Module& m, const Bundle& b) {
  std::vector<FeatureUse> uses;
  std::set<std::string> seen;
  for (const llvm::Function& f : m)
    for (const llvm::BasicBlock& bb : f)
      for (const llvm::Instruction& i : bb) {
        auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
        if (!call) continue;
        std::string text;
        if (auto* asmCall = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) text = asmCall->getAsmString();
        else if (const llvm::Function* callee = call->getCalledFunction(); callee && callee->getName().starts_with("llvm.nvvm."))
          text = callee->getName().str();
        std::string feature = text.empty() ? "" : featureOf(text);
        if (feature.empty() || !seen.insert(feature).second) continue;
        uses.push_back({feature, asWritten(statementOf(text, feature)), i.getDebugLoc() ? userLocation(i) : SourceLoc{}});
      }
  for (const ArgSpec& a : b.args)  // a descriptor the kernel only passes on still needs TMA
    if (a.isTensorMap && seen.insert("tma").second)
      uses.push_back({"tma", "a TMA descriptor over buffer '" + a.name + "'", {}});
  return uses;
}

}  // namespace td
