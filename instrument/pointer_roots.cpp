#include "instrument/pointer_roots.h"

#include "instrument/ptx_catalogue.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

namespace td {

bool isKernel(const llvm::Function& f) {
  if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel || f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL) return true;
  const llvm::NamedMDNode* ann = f.getParent()->getNamedMetadata("nvvm.annotations");
  if (!ann) return false;
  for (const llvm::MDNode* n : ann->operands()) {
    if (n->getNumOperands() < 3) continue;
    auto* fn = llvm::mdconst::dyn_extract_or_null<llvm::Function>(n->getOperand(0));
    auto* key = llvm::dyn_cast<llvm::MDString>(n->getOperand(1));
    if (fn == &f && key && key->getString() == "kernel") return true;
  }
  return false;
}

PointerRoot PointerRoots::of(llvm::Value* p) { return walk(p, 0); }

// A device function's pointer parameter: the root every direct call passes. Calls passing different
// shared arrays give SharedAny; anything else that disagrees, or a use other than a direct call (an
// address taken), gives Unknown.
PointerRoot PointerRoots::fromCalls(llvm::Argument& arg, unsigned depth) {
  llvm::Function* f = arg.getParent();
  if (f->isDeclaration()) return {};
  bool first = true;
  PointerRoot r;
  for (llvm::Use& use : f->uses()) {
    auto* call = llvm::dyn_cast<llvm::CallBase>(use.getUser());
    if (!call || !call->isCallee(&use) || arg.getArgNo() >= call->arg_size()) return {};
    PointerRoot s = walk(call->getArgOperand(arg.getArgNo()), depth + 1);
    if (s.kind == PointerRoot::Unknown && s.argNo == ~0u) return {};  // recursion
    if (first) r = s, first = false;
    else if (r.shared() && s.shared() && !(r == s)) r = {PointerRoot::SharedAny, 0, nullptr};
    else if (!(r == s)) return {};
  }
  return r;
}

PointerRoot PointerRoots::walk(llvm::Value* p, unsigned depth) {
  if (depth > 64) return {};
  auto it = memo_.find(p);
  if (it != memo_.end()) return it->second;
  if (inProgress_.lookup(p)) return {PointerRoot::Unknown, ~0u, nullptr};  // a cycle: neutral for phis
  inProgress_[p] = true;
  PointerRoot r{PointerRoot::Unknown, 0, nullptr};
  if (auto* arg = llvm::dyn_cast<llvm::Argument>(p)) {
    if (isKernel(*arg->getParent()) && arg->getType()->isPointerTy()) r = {PointerRoot::KernelArg, arg->getArgNo(), nullptr};
    else if (arg->getParent()->getName() == kAsyncCopyLanding && arg->getArgNo() == 0) r = {PointerRoot::SharedAny, 0, nullptr};
    else if (arg->getType()->isPointerTy()) r = fromCalls(*arg, depth);
  } else if (llvm::isa<llvm::AllocaInst>(p)) {
    r = {PointerRoot::Local, 0, nullptr};
  } else if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(p)) {
    if (gv->getAddressSpace() == 3) r = {PointerRoot::SharedVar, 0, gv};
  } else if (auto* gep = llvm::dyn_cast<llvm::GEPOperator>(p)) {
    r = walk(gep->getPointerOperand(), depth + 1);
  } else if (auto* op = llvm::dyn_cast<llvm::Operator>(p);
             op && (op->getOpcode() == llvm::Instruction::BitCast || op->getOpcode() == llvm::Instruction::AddrSpaceCast)) {
    r = walk(op->getOperand(0), depth + 1);
  } else if (op && op->getOpcode() == llvm::Instruction::IntToPtr) {
    // inttoptr(ptrtoint(q) + offset): the offset arithmetic keeps q's object (so does rounding down to an
    // alignment, `& ~3`: the aligned word holding a 16-bit value).
    llvm::Value* v = op->getOperand(0);
    while (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(v)) {
      if (bin->getOpcode() != llvm::Instruction::Add && bin->getOpcode() != llvm::Instruction::Sub &&
          bin->getOpcode() != llvm::Instruction::Or && bin->getOpcode() != llvm::Instruction::And)
        break;
      v = llvm::isa<llvm::PtrToIntOperator>(bin->getOperand(1)) ? bin->getOperand(1) : bin->getOperand(0);
    }
    if (auto* pti = llvm::dyn_cast<llvm::PtrToIntOperator>(v)) r = walk(pti->getPointerOperand(), depth + 1);
  } else if (auto* phi = llvm::dyn_cast<llvm::PHINode>(p)) {
    bool first = true, agree = true;
    for (llvm::Value* in : phi->incoming_values()) {
      PointerRoot s = walk(in, depth + 1);
      if (s.kind == PointerRoot::Unknown && s.argNo == ~0u) continue;  // back edge
      if (first) { r = s; first = false; }
      else if (!(s == r)) agree = false;
    }
    if (!agree) r = {};
  } else if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(p)) {
    PointerRoot a = walk(sel->getTrueValue(), depth + 1), b = walk(sel->getFalseValue(), depth + 1);
    r = (a == b) ? a : PointerRoot{};
  }
  inProgress_.erase(p);
  bool fromCycle = r.kind == PointerRoot::Unknown && r.argNo == ~0u;
  if (!fromCycle) memo_[p] = r;  // a value met only through a back edge is resolved by its phi
  return r;
}

}  // namespace td
