#include "instrument/stop_sites.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include "model/abi.h"
#include "instrument/hook_functions.h"

namespace td {

namespace {

// The text of a constant C string argument ("" when it is none).
std::string constantString(llvm::Value* v) {
  auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(v->stripPointerCasts());
  if (!gv || !gv->hasInitializer()) return "";
  auto* data = llvm::dyn_cast<llvm::ConstantDataSequential>(gv->getInitializer());
  return data && data->isCString() ? data->getAsCString().str() : "";
}

bool isTrapAsm(const llvm::CallInst& call) {
  auto* ia = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand());
  if (!ia) return false;
  llvm::StringRef s = llvm::StringRef(ia->getAsmString()).trim();
  return s == "trap;" || s == "trap";
}

}  // namespace

llvm::PreservedAnalyses StopSitesPass::run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
  std::vector<llvm::CallInst*> stops;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
          llvm::Function* callee = call->getCalledFunction();
          if (isTrapAsm(*call) || (callee && (callee->getName() == "__assertfail" ||
                                              callee->getIntrinsicID() == llvm::Intrinsic::trap)))
            stops.push_back(call);
        }
  if (stops.empty()) return llvm::PreservedAnalyses::all();
  llvm::FunctionCallee hook = hookFunction(m, Hook::kernel_stop);
  for (llvm::CallInst* call : stops) {
    bool assertion = call->getCalledFunction() && call->getCalledFunction()->getName() == "__assertfail";
    Site s;
    s.kind = SiteKind::Stop;
    s.loc = userLocation(*call);
    s.what = assertion ? "assert(" + constantString(call->getArgOperand(0)) + ")" : "__trap()";
    unsigned site = table_.add(s);
    llvm::IRBuilder<> b(call);
    b.CreateCall(hook, {b.getInt32(assertion ? TD_KIND_DEVICE_ASSERT : TD_KIND_TRAP), b.getInt32(site)});
    if (!assertion && !call->getCalledFunction()) {  // the inline "trap;" becomes the intrinsic both executors know
      llvm::CallInst* trap = b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
      trap->setDebugLoc(call->getDebugLoc());
      call->eraseFromParent();
      call = trap;
    }
    tagSite(*call, site);
  }
  return llvm::PreservedAnalyses::none();
}

}  // namespace td
