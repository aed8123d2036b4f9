#include "checks/numerics/shadowless_memory.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include "instrument/ptx_catalogue.h"
#include "instrument/hook_functions.h"

namespace td {

ShadowMemory shadowMemoryOf(PointerRoots& roots, llvm::Value* ptr,
                            const llvm::DenseMap<const llvm::GlobalVariable*, int>& sharedIds) {
  PointerRoot r = roots.of(ptr);
  if (r.kind == PointerRoot::KernelArg) return {0, static_cast<int>(r.argNo)};
  if (r.kind == PointerRoot::SharedVar) {
    auto it = sharedIds.find(r.var);
    return {1, it != sharedIds.end() ? it->second : -1};
  }
  if (r.kind == PointerRoot::SharedAny || ptr->getType()->getPointerAddressSpace() == 3) return {1, -1};
  return {};
}

namespace {

// Operations whose result's shadow the pass computes from more than the value itself.
bool computesItsShadow(const llvm::Instruction& i) {
  if (llvm::isa<llvm::BinaryOperator>(i)) return i.getType()->isFPOrFPVectorTy();
  if (llvm::isa<llvm::FPTruncInst>(i) || llvm::isa<llvm::SIToFPInst>(i) || llvm::isa<llvm::UIToFPInst>(i)) return true;
  auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
  if (!call) return false;
  if (auto* ia = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
    std::optional<PtxStatement> st = parsePtx(ia->getAsmString());
    return !(st && st->op == PtxOp::LdMatrix) && !call->getType()->isVoidTy();  // ldmatrix: a copy
  }
  if (auto* in = llvm::dyn_cast<llvm::IntrinsicInst>(call)) {
    switch (in->getIntrinsicID()) {
      case llvm::Intrinsic::fabs:
      case llvm::Intrinsic::copysign:
      case llvm::Intrinsic::minnum:
      case llvm::Intrinsic::maxnum:
      case llvm::Intrinsic::minimum:
      case llvm::Intrinsic::maximum:
        return false;  // exact: the operands' shadows
      default:
        break;
    }
    if (in->getCalledFunction()->getName().starts_with("llvm.nvvm.shfl.")) return false;  // a move
  }
  llvm::Type* t = call->getType();
  return t->isFPOrFPVectorTy() || t->isStructTy();
}

// Users a value's nontrivial shadow does not reach: addresses, comparisons, conversions to integers, and
// loads (whose values come from memory).
bool passesShadowOn(const llvm::User& u) {
  return !(llvm::isa<llvm::LoadInst>(u) || llvm::isa<llvm::CmpInst>(u) || llvm::isa<llvm::FPToSIInst>(u) ||
           llvm::isa<llvm::FPToUIInst>(u) || llvm::isa<llvm::GetElementPtrInst>(u) || llvm::isa<llvm::PtrToIntInst>(u) ||
           llvm::isa<llvm::StoreInst>(u));
}

}  // namespace

std::tuple<const llvm::Function*, int, int> ShadowlessMemory::key(const llvm::Function& f, ShadowMemory at) const {
  return {at.space == 0 ? &f : nullptr, at.space, at.object};
}

bool ShadowlessMemory::shadowless(const llvm::Function& f, ShadowMemory at) const {
  return at.space >= 0 && !shadowful_.count(key(f, at));
}

bool ShadowlessMemory::readBack(const llvm::Function& f, ShadowMemory at) const {
  if (at.space != 1) return loaded_.count(key(f, at)) != 0;
  if (at.object < 0) return loaded_.lower_bound({nullptr, 1, -1}) != loaded_.lower_bound({nullptr, 2, -1});  // any
  return loaded_.count(key(f, at)) || loaded_.count(key(f, {1, -1}));
}

ShadowlessMemory::ShadowlessMemory(llvm::Module& m, const llvm::DenseMap<const llvm::GlobalVariable*, int>& sharedIds) {
  struct Access {
    llvm::Instruction* inst;
    ShadowMemory at;
  };
  std::vector<std::pair<llvm::Function*, std::vector<Access>>> loadsOf, storesOf;
  std::vector<llvm::Instruction*> seeds;
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || isOwn(f)) continue;
    PointerRoots roots;
    std::vector<Access> loads, stores;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb) {
        if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) {
          ShadowMemory at = shadowMemoryOf(roots, ld->getPointerOperand(), sharedIds);
          if (at.space >= 0) loads.push_back({&i, at}), loaded_.insert(key(f, at));
        } else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          ShadowMemory at = shadowMemoryOf(roots, st->getPointerOperand(), sharedIds);
          if (at.space >= 0) stores.push_back({&i, at});
        } else if (computesItsShadow(i)) {
          seeds.push_back(&i);
        }
      }
    loadsOf.push_back({&f, std::move(loads)});
    storesOf.push_back({&f, std::move(stores)});
  }
  // Values carrying a computed shadow, forward through their users; stores of one make their memory
  // shadowful, and loads from that memory carry one too: until nothing changes.
  std::vector<llvm::Value*> work(seeds.begin(), seeds.end());
  for (bool changed = true; changed;) {
    while (!work.empty()) {
      llvm::Value* v = work.back();
      work.pop_back();
      if (!computed_.insert(v).second) continue;
      for (llvm::User* u : v->users())
        if (passesShadowOn(*u)) work.push_back(u);
    }
    changed = false;
    for (auto& [f, stores] : storesOf)
      for (const Access& s : stores)
        if (computed_.count(llvm::cast<llvm::StoreInst>(s.inst)->getValueOperand()) && shadowful_.insert(key(*f, s.at)).second)
          changed = true;
    if (!changed) break;
    for (auto& [f, loads] : loadsOf)
      for (const Access& l : loads)
        if (shadowful_.count(key(*f, l.at)) && !computed_.count(l.inst)) work.push_back(l.inst);
  }
}

}  // namespace td
