#include "instrument/target_semantics.h"

#include <algorithm>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "instrument/nvvm_barriers.h"
#include "instrument/ptx_catalogue.h"

namespace td {

namespace {

// A barrier with a thread count: bar.sync / barrier.sync id, count as inline PTX (TileLang's
// tl::__sync_thread_partial, hand-written code), or the NVVM intrinsics that take a count.
std::string partialBarrier(const llvm::CallBase& call) {
  if (auto* a = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand())) {
    std::optional<PtxStatement> st = parsePtx(a->getAsmString());
    if (st && st->op == PtxOp::Barrier && st->hasCount && !st->arrive) {
      std::string text = a->getAsmString();
      for (size_t i = 0; i + 1 < text.size(); ++i)  // as written: %N, not LLVM's $N
        if (text[i] == '$' && std::isdigit(static_cast<unsigned char>(text[i + 1]))) text[i] = '%';
      return text;
    }
    return "";
  }
  const llvm::Function* f = call.getCalledFunction();
  if (!f) return "";
  if (nvvmBarrierOf(f->getName()) == NvvmBarrier::NamedCounted) return "barrier.sync with a thread count";
  return "";
}

}  // namespace

std::vector<IgnoredStatement> dropIgnoredStatements(llvm::Module& m, const std::vector<std::string>& ignores) {
  std::vector<IgnoredStatement> dropped;
  if (std::find(ignores.begin(), ignores.end(), "partial-barrier") == ignores.end()) return dropped;
  std::vector<llvm::CallBase*> gone;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i); call && call->use_empty())
          if (std::string what = partialBarrier(*call); !what.empty()) {
            dropped.push_back({"partial-barrier", what, i.getDebugLoc() ? userLocation(i) : SourceLoc{}});
            gone.push_back(call);
          }
  for (llvm::CallBase* c : gone) c->eraseFromParent();
  return dropped;
}

}  // namespace td
