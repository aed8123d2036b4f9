#include "instrument/accesses.h"

#include <set>

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include "instrument/ptx_catalogue.h"
#include "instrument/hook_functions.h"

namespace td {

llvm::Value* pointerOperandOf(llvm::Value* v) {
  for (int depth = 0; depth < 16; ++depth) {
    if (auto* p2i = llvm::dyn_cast<llvm::PtrToIntOperator>(v)) return p2i->getPointerOperand();
    auto* op = llvm::dyn_cast<llvm::Operator>(v);
    if (!op) return nullptr;
    unsigned code = op->getOpcode();
    if (code == llvm::Instruction::Trunc || code == llvm::Instruction::ZExt || code == llvm::Instruction::SExt) {
      v = op->getOperand(0);
    } else if (code == llvm::Instruction::Add || code == llvm::Instruction::Or) {
      if (llvm::Value* p = pointerOperandOf(op->getOperand(0))) return p;
      return pointerOperandOf(op->getOperand(1));
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

namespace {

// The alignment the IR promises for the access. The GPU back end relies on it (it merges neighbouring
// scalar accesses into one vector access when the first claims 16 bytes), so an address that breaks the
// promise faults on the GPU even where each scalar access alone would be fine. Vector accesses are at
// most 16 bytes wide on NVIDIA GPUs.
unsigned requiredAlign(uint64_t, llvm::Align declared) {
  return static_cast<unsigned>(std::min<uint64_t>(declared.value(), 16));
}

bool leadsToPointer(llvm::Value* v) { return pointerOperandOf(v) != nullptr; }

// The pointer an integer address operand of inline PTX stands for (cvta.to.shared values, plus byte
// offsets): rebuilt as a generic pointer just before `at`, or nullptr when the integer has no such origin.
llvm::Value* pointerBehind(llvm::Value* v, llvm::Instruction* at) {
  llvm::SmallVector<llvm::Value*, 4> offsets;
  for (int depth = 0; depth < 16; ++depth) {
    auto* op = llvm::dyn_cast<llvm::Operator>(v);
    unsigned code = op ? op->getOpcode() : 0;
    if (op && !llvm::isa<llvm::PtrToIntOperator>(v) &&
        (code == llvm::Instruction::Trunc || code == llvm::Instruction::ZExt || code == llvm::Instruction::SExt)) {
      v = op->getOperand(0);
    } else if (auto* bin = op; bin && (code == llvm::Instruction::Add || code == llvm::Instruction::Or)) {
      // The side that leads to a pointer is the base; the other an offset.
      bool leftIsBase = leadsToPointer(bin->getOperand(0));
      llvm::Value* base = leftIsBase ? bin->getOperand(0) : bin->getOperand(1);
      offsets.push_back(leftIsBase ? bin->getOperand(1) : bin->getOperand(0));
      v = base;
    } else if (auto* p2i = llvm::dyn_cast<llvm::PtrToIntOperator>(v)) {
      llvm::IRBuilder<> b(at);
      llvm::Value* p = genericPointer(b, p2i->getPointerOperand());
      for (llvm::Value* off : offsets) p = b.CreateGEP(b.getInt8Ty(), p, b.CreateSExtOrTrunc(off, b.getInt64Ty()));
      return p;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

}  // namespace

void forEachUserAccess(llvm::Module& m, const std::function<void(Access&, const PointerRoot&)>& visit) {
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || isOwn(f)) continue;
    std::vector<Access> accesses;
    collectAccesses(f, accesses);
    PointerRoots roots;
    for (Access& a : accesses) visit(a, roots.of(a.ptr));
  }
}

llvm::Value* genericPointer(llvm::IRBuilderBase& b, llvm::Value* p) {
  return p->getType()->getPointerAddressSpace() == 0 ? p : b.CreateAddrSpaceCast(p, b.getPtrTy());
}

void setHookLocation(llvm::IRBuilderBase& b, llvm::Instruction* at) {
  if (at->getDebugLoc()) b.SetCurrentDebugLocation(at->getDebugLoc());
  else if (llvm::DISubprogram* sp = at->getFunction()->getSubprogram())
    b.SetCurrentDebugLocation(llvm::DILocation::get(at->getContext(), 0, 0, sp));
}

bool isWarpCollectiveAsm(llvm::Instruction* i) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(i);
  if (!call || !llvm::isa<llvm::InlineAsm>(call->getCalledOperand())) return false;
  auto st = parsePtx(llvm::cast<llvm::InlineAsm>(call->getCalledOperand())->getAsmString());
  return st && isWarpCollective(*st);
}

// `operand` (a pointer, or an integer made of one) is `address`.
bool sameAddress(const llvm::Value* operand, const llvm::Value* address) {
  operand = operand->stripPointerCasts();
  if (auto* p2i = llvm::dyn_cast<llvm::PtrToIntOperator>(operand)) operand = p2i->getPointerOperand()->stripPointerCasts();
  return operand == address;
}

// A plain load whose value is the expected value of a compare-and-swap on the same address: the first read
// of a CAS loop (`old = *p; do { assumed = old; old = atomicCAS(p, assumed, f(assumed)); } while (...)`, the
// CUDA SDK's bf16/half atomics below sm_90 and the programming guide's double atomicAdd). The CAS checks
// what it read, so a stale value only costs a retry: it is an atomic read, racing with plain writes only.
bool seedsCompareExchange(const llvm::LoadInst& ld) {
  const llvm::Value* address = ld.getPointerOperand()->stripPointerCasts();
  std::vector<const llvm::Value*> work = {&ld};
  std::set<const llvm::Value*> seen;
  while (!work.empty() && seen.size() < 32) {
    const llvm::Value* v = work.back();
    work.pop_back();
    if (!seen.insert(v).second) continue;
    for (const llvm::User* u : v->users()) {
      if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(u)) {
        if (cx->getCompareOperand() == v && sameAddress(cx->getPointerOperand(), address)) return true;
      } else if (auto* call = llvm::dyn_cast<llvm::CallBase>(u)) {
        // the 16-bit CAS (frontend/prelude/td_sdk_builtins.h), or atom.cas written as PTX (libcu++)
        const llvm::Function* callee = call->getCalledFunction();
        bool cas = callee && callee->getName() == "__usAtomicCAS";
        if (auto* asmCall = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
          auto st = parsePtx(asmCall->getAsmString());
          cas = st && st->op == PtxOp::ScopedAtomic && st->atomic == ScopedAtomicOp::Cas;
        }
        if (cas && call->arg_size() == 3 && call->getArgOperand(1) == v && sameAddress(call->getArgOperand(0), address))
          return true;
      } else if (llvm::isa<llvm::PHINode>(u) || llvm::isa<llvm::BitCastInst>(u)) {
        work.push_back(u);
      }
    }
  }
  return false;
}

void collectAccesses(llvm::Function& f, std::vector<Access>& out) {
  const llvm::DataLayout& dl = f.getParent()->getDataLayout();
  llvm::Type* i32 = llvm::Type::getInt32Ty(f.getContext());
  auto fixed = [&](llvm::Instruction* i, llvm::Value* p, llvm::Type* t, llvm::Align a, SiteKind k) {
    uint64_t w = dl.getTypeStoreSize(t);
    out.push_back({i, p, llvm::ConstantInt::get(i32, w), requiredAlign(w, a), k, static_cast<unsigned>(w)});
  };
  for (llvm::BasicBlock& bb : f) {
    for (llvm::Instruction& i : bb) {
      if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) {
        fixed(ld, ld->getPointerOperand(), ld->getType(), ld->getAlign(), SiteKind::Load);
        out.back().atomicRead = ld->isAtomic() || seedsCompareExchange(*ld);
      }
      else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i))  // a store atomic races with plain accesses alone
        fixed(st, st->getPointerOperand(), st->getValueOperand()->getType(), st->getAlign(),
              st->isAtomic() ? SiteKind::Atomic : SiteKind::Store);
      else if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i))
        fixed(rmw, rmw->getPointerOperand(), rmw->getValOperand()->getType(), rmw->getAlign(), SiteKind::Atomic);
      else if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i))
        fixed(cx, cx->getPointerOperand(), cx->getNewValOperand()->getType(), cx->getAlign(), SiteKind::Atomic);
      else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i); call && llvm::isa<llvm::InlineAsm>(call->getCalledOperand())) {
        // Memory effects of catalogue statements: cp.async reads global [src] and writes shared [dst];
        // ldmatrix reads one 16-byte row per lane.
        auto st = parsePtx(llvm::cast<llvm::InlineAsm>(call->getCalledOperand())->getAsmString());
        if (!st) continue;
        auto add = [&](llvm::Value* p, unsigned w, SiteKind k) {
          if (p) out.push_back({call, p, llvm::ConstantInt::get(i32, w), w, k, w});
        };
        if (st->op == PtxOp::CpAsync && call->arg_size() >= 2) {
          unsigned bytes = static_cast<unsigned>(st->count);
          if (st->sizeOperand >= 0 && static_cast<unsigned>(st->sizeOperand) < call->arg_size())
            if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(st->sizeOperand)))
              bytes = static_cast<unsigned>(c->getZExtValue());
          llvm::Value* src = call->getArgOperand(1);
          add(src->getType()->isPointerTy() ? src : pointerBehind(src, call), bytes, SiteKind::Load);
          if (st->srcSize && static_cast<unsigned>(st->srcSizeOperand) < call->arg_size()) {
            // With a src-size operand only that many bytes are read (the rest is zero-filled).
            llvm::IRBuilder<> b(call);
            out.back().size = b.CreateZExtOrTrunc(call->getArgOperand(st->srcSizeOperand), i32);
          }
          llvm::Value* dst = call->getArgOperand(0);
          add(dst->getType()->isPointerTy() ? dst : pointerBehind(dst, call), bytes, SiteKind::Store);
        } else if ((st->op == PtxOp::ScopedLoad || st->op == PtxOp::ScopedStore || st->op == PtxOp::ScopedAtomic) &&
                   call->arg_size() >= 1) {
          // ld.relaxed is an atomic load, st.relaxed an atomic write: they race with plain accesses, not with
          // atomics
          llvm::Value* p = call->getArgOperand(0);
          add(p->getType()->isPointerTy() ? p : pointerBehind(p, call), ptxTypeBytes(st->valueType),
              st->op == PtxOp::ScopedLoad ? SiteKind::Load : SiteKind::Atomic);
          if (!out.empty() && out.back().inst == call) out.back().atomicRead = st->op == PtxOp::ScopedLoad;
        } else if ((st->op == PtxOp::LdMatrix || st->op == PtxOp::StMatrix) && call->arg_size() >= 1) {
          add(pointerBehind(call->getArgOperand(0), call), 16, st->op == PtxOp::LdMatrix ? SiteKind::Load : SiteKind::Store);
        }
      } else if (auto* mi = llvm::dyn_cast<llvm::MemIntrinsic>(&i)) {
        llvm::IRBuilder<> b(mi);
        llvm::Value* len = b.CreateZExtOrTrunc(mi->getLength(), i32);
        auto* c = llvm::dyn_cast<llvm::ConstantInt>(mi->getLength());
        unsigned w = c ? static_cast<unsigned>(c->getZExtValue()) : 0;
        auto align = [&](llvm::MaybeAlign a) { return requiredAlign(w, a.valueOrOne()); };
        out.push_back({mi, mi->getRawDest(), len, align(mi->getDestAlign()), SiteKind::MemIntrinsic, w});
        if (auto* mt = llvm::dyn_cast<llvm::MemTransferInst>(mi))
          out.push_back({mi, mt->getRawSource(), len, align(mt->getSourceAlign()), SiteKind::MemIntrinsic, w});
      }
    }
  }
}

}  // namespace td
