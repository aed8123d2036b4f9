#include "checks/bounds/bounds_pass.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "instrument/access_guard.h"
#include "instrument/accesses.h"
#include "instrument/shared_objects.h"
#include "instrument/pointer_roots.h"
#include "instrument/ptx_catalogue.h"
#include "instrument/hook_functions.h"

namespace td {

llvm::PreservedAnalyses BoundsCheckPass::run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  llvm::FunctionCallee checkGlobal = hookFunction(m, Hook::check_global);
  llvm::FunctionCallee checkShared = hookFunction(m, Hook::check_shared);
  llvm::FunctionCallee checkWindow = hookFunction(m, Hook::check_shared_window);
  llvm::FunctionCallee unchecked = hookFunction(m, Hook::unchecked_access);

  llvm::DenseMap<const llvm::GlobalVariable*, int> sharedIds = sharedObjectIds(m);

  forEachUserAccess(m, [&](Access& a, const PointerRoot& root) {
    Site s;
    s.kind = a.kind;
    s.loc = userLocation(*a.inst);
    s.size = a.width;
    s.align = a.align;
    // A thread's local arrays (register tiles that did not fit registers) are private and sized by the
    // compiler; checking them would only keep them out of registers.
    if (root.kind == PointerRoot::Local) return;
    unsigned addrSpace = a.ptr->getType()->getPointerAddressSpace();
    llvm::IRBuilder<> b(a.inst);
    setHookLocation(b, a.inst);
    llvm::Value* generic = genericPointer(b, a.ptr);
    llvm::Value* ok = nullptr;
    if (root.kind == PointerRoot::KernelArg) {
      s.space = Space::Global;
      s.object = static_cast<int>(root.argNo);
      unsigned id = table_.add(s);
      ok = b.CreateCall(checkGlobal, {llvm::ConstantInt::get(i32, id), llvm::ConstantInt::get(i32, root.argNo), generic,
                                      a.size, llvm::ConstantInt::get(i32, a.align)});
      tagSite(*a.inst, id);
    } else if (root.shared() || addrSpace == 3) {
      s.space = Space::Shared;
      if (root.kind == PointerRoot::SharedVar) s.object = sharedIds.lookup(root.var);
      unsigned id = table_.add(s);
      llvm::Value* site = llvm::ConstantInt::get(i32, id);
      llvm::Value* align = llvm::ConstantInt::get(i32, a.align);
      if (root.kind == PointerRoot::SharedVar)
        ok = b.CreateCall(checkShared, {site, generic, a.size, align, llvm::ConstantExpr::getAddrSpaceCast(root.var, ptr),
                                        llvm::ConstantInt::get(i64, table_.shared[s.object].bytes),
                                        llvm::ConstantInt::get(i32, table_.shared[s.object].align)});
      else
        ok = b.CreateCall(checkWindow, {site, generic, a.size, align});
      tagSite(*a.inst, id);
    } else {
      unsigned id = table_.add(s);
      b.CreateCall(unchecked, {llvm::ConstantInt::get(i32, id)});
      tagSite(*a.inst, id);
      return;
    }
    // A warp-collective statement cannot be skipped by one lane alone: it is reported, not skipped.
    if (isWarpCollectiveAsm(a.inst)) return;
    noteConfined(*a.inst);
    guardAccess(a.inst, ok);
  });
  return llvm::PreservedAnalyses::none();
}

}  // namespace td
