#include "instrument/race_pass.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "instrument/accesses.h"
#include "instrument/bounds_pass.h"
#include "instrument/pointer_roots.h"

namespace td {

// Access kinds of the hook (td_runtime.cu): 0 read, 1 write, 2 atomic; +4 checks uninitialised reads,
// +8 checks races.
llvm::PreservedAnalyses SharedRacePass::run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee hook =
      m.getOrInsertFunction("__td_race_shared", llvm::Type::getVoidTy(ctx), i32, ptr, i32, i32, ptr, i64);
  llvm::DenseMap<const llvm::GlobalVariable*, int> sharedIds = sharedObjectIds(m);
  unsigned flags = (init_ ? 4u : 0u) | (race_ ? 8u : 0u);
  forEachUserAccess(m, [&](Access& a, const PointerRoot& root) {
    if (root.kind != PointerRoot::SharedVar && a.ptr->getType()->getPointerAddressSpace() != 3) return;
    Site s;
    s.kind = a.kind;
    s.loc = userLocation(*a.inst);
    s.size = a.width;
    s.space = Space::Shared;
    if (root.kind == PointerRoot::SharedVar) s.object = sharedIds.lookup(root.var);
    unsigned id = table_.add(s);
    llvm::IRBuilder<> b(a.inst);
    setHookLocation(b, a.inst);
    llvm::Value* generic = a.ptr->getType()->getPointerAddressSpace() == 0 ? a.ptr : b.CreateAddrSpaceCast(a.ptr, ptr);
    unsigned kind = a.kind == SiteKind::Atomic ? 2 : (a.kind == SiteKind::Store ? 1 : 0);
    if (a.kind == SiteKind::MemIntrinsic) kind = a.ptr == a.inst->getOperand(0) ? 1 : 0;  // dest written, source read
    // The array the access belongs to: an access outside it is the bounds check's (and is skipped).
    llvm::Value* obj = llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx, 0));
    uint64_t objBytes = 0;
    if (root.kind == PointerRoot::SharedVar) {
      obj = llvm::ConstantExpr::getAddrSpaceCast(root.var, ptr);
      objBytes = table_.shared[s.object].bytes;
    }
    b.CreateCall(hook, {llvm::ConstantInt::get(i32, id), generic, a.size, llvm::ConstantInt::get(i32, kind | flags), obj,
                        llvm::ConstantInt::get(i64, objBytes)});
  });
  return llvm::PreservedAnalyses::none();
}

}  // namespace td
