#include "instrument/sync_sites.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "instrument/nvvm_barriers.h"

namespace td {

namespace {
// The user-facing name of a synchronising intrinsic, or "" when the call is none.
std::string syncName(llvm::StringRef callee, SiteKind& kind) {
  kind = SiteKind::Barrier;
  switch (nvvmBarrierOf(callee)) {
    case NvvmBarrier::Block: return "__syncthreads";
    case NvvmBarrier::BlockReduce: return "__syncthreads_" + callee.drop_front(19).str();
    case NvvmBarrier::Named:
    case NvvmBarrier::NamedCounted: return "bar.sync";
    case NvvmBarrier::None: break;
  }
  kind = SiteKind::WarpOp;
  if (callee == "llvm.nvvm.bar.warp.sync") return "__syncwarp";
  if (callee.starts_with("llvm.nvvm.shfl.sync.")) return "shfl.sync." + callee.drop_front(20).split('.').first.str();
  if (callee.starts_with("llvm.nvvm.shfl.")) return "__shfl_" + callee.drop_front(15).split('.').first.str();  // mask-less (HIP)
  if (callee.starts_with("llvm.nvvm.vote.")) return "vote." + callee.drop_front(15).split('.').first.str();
  if (callee.starts_with("llvm.nvvm.match.")) return "match.sync";
  if (callee == "llvm.nvvm.activemask") return "__activemask";
  return "";
}
}  // namespace

llvm::PreservedAnalyses SyncSitesPass::run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
  for (llvm::Function& f : m) {
    for (llvm::BasicBlock& bb : f) {
      for (llvm::Instruction& i : bb) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        if (!call) continue;
        Site s;
        if (auto* asmStmt = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
          s.kind = SiteKind::AsmStatement;
          s.what = asmStmt->getAsmString();
        } else if (llvm::Function* callee = call->getCalledFunction()) {
          s.what = syncName(callee->getName(), s.kind);
          if (s.what.empty()) continue;
        } else {
          continue;
        }
        s.loc = userLocation(i);
        tagSite(i, table_.add(s));
      }
    }
  }
  return llvm::PreservedAnalyses::all();
}

}  // namespace td
