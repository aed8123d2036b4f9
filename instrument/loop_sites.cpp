#include "instrument/loop_sites.h"
#include "instrument/hook_functions.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace td {

llvm::PreservedAnalyses LoopSitesPass::run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::FunctionCallee mark =
      hookFunction(m, Hook::mark_site);
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || isOwn(f)) continue;
    llvm::DominatorTree dt(f);
    llvm::LoopInfo li(dt);
    for (llvm::Loop* loop : li.getLoopsInPreorder()) {
      llvm::BasicBlock* header = loop->getHeader();
      llvm::Instruction* at = &*header->getFirstInsertionPt();
      Site s;
      s.kind = SiteKind::Loop;
      s.what = "loop";
      for (llvm::Instruction& i : *header)  // the header's first located instruction names the loop
        if (i.getDebugLoc()) {
          s.loc = userLocation(i);
          break;
        }
      unsigned id = table_.add(s);
      llvm::IRBuilder<> b(at);
      if (llvm::DISubprogram* sp = f.getSubprogram())
        b.SetCurrentDebugLocation(llvm::DILocation::get(ctx, s.loc.line, s.loc.col, sp));
      b.CreateCall(mark, {b.getInt32(id)});
    }
  }
  return llvm::PreservedAnalyses::none();
}

}  // namespace td
