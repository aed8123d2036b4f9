#include "instrument/private_memory.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <set>
#include <vector>

namespace td {

namespace {

// The defined functions `f` may call, itself included (the module's kernels are inlined at -O3, so this
// is mostly the kernel alone).
std::vector<const llvm::Function*> reachable(const llvm::Function& f) {
  std::vector<const llvm::Function*> order = {&f};
  std::set<const llvm::Function*> seen = {&f};
  for (size_t i = 0; i < order.size(); ++i)
    for (const llvm::BasicBlock& bb : *order[i])
      for (const llvm::Instruction& inst : bb)
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&inst))
          if (const llvm::Function* callee = call->getCalledFunction())
            if (!callee->isDeclaration() && seen.insert(callee).second) order.push_back(callee);
  return order;
}

// Where the array is first used in the source: the lowest line among its accesses (directly or through an
// address computed from it), lifetime markers aside.
SourceLoc firstUse(const llvm::AllocaInst& a) {
  SourceLoc best;
  std::vector<const llvm::Value*> work = {&a};
  std::set<const llvm::Value*> seen = {&a};
  while (!work.empty()) {
    const llvm::Value* v = work.back();
    work.pop_back();
    for (const llvm::User* u : v->users()) {
      auto* i = llvm::dyn_cast<llvm::Instruction>(u);
      if (!i || i->isLifetimeStartOrEnd() || !seen.insert(i).second) continue;
      if (llvm::isa<llvm::GetElementPtrInst>(i) || llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::PHINode>(i) ||
          llvm::isa<llvm::SelectInst>(i))
        work.push_back(i);
      if (!i->getDebugLoc()) continue;
      SourceLoc loc = userLocation(*i);
      if (loc.line && (best.file.empty() || loc.line < best.line || (loc.line == best.line && loc.col < best.col)))
        best = loc;
    }
  }
  return best;
}

}  // namespace

PrivateMemory privateMemoryOf(const llvm::Function& kernel) {
  PrivateMemory pm;
  const llvm::DataLayout& dl = kernel.getParent()->getDataLayout();
  for (const llvm::Function* f : reachable(kernel))
    for (const llvm::BasicBlock& bb : *f)
      for (const llvm::Instruction& inst : bb) {
        auto* a = llvm::dyn_cast<llvm::AllocaInst>(&inst);
        if (!a) continue;
        std::optional<llvm::TypeSize> size = a->getAllocationSize(dl);
        if (!size || size->isScalable()) {
          pm.dynamic = true;
          continue;
        }
        uint64_t align = a->getAlign().value(), bytes = size->getFixedValue();
        pm.bytes = (pm.bytes + align - 1) / align * align + bytes;
        if (bytes > pm.largestBytes) {
          pm.largestBytes = bytes;
          pm.largest = firstUse(*a);
        }
      }
  return pm;
}

}  // namespace td
