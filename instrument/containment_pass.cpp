#include "instrument/containment_pass.h"

#include <cstdlib>
#include <fmt/format.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "instrument/access_guard.h"
#include "instrument/accesses.h"
#include "instrument/pointer_roots.h"
#include "instrument/shared_objects.h"
#include "instrument/hook_functions.h"

namespace td {

namespace {

bool isTileDoctors(const llvm::GlobalValue& g) { return isOwn(g) || g.getName().starts_with("llvm."); }

// A variable the kernel's module defines, of known size, not in shared memory (which the window check
// covers): what a pointer of unknown origin may still reach.
bool isOwnVariable(const llvm::GlobalVariable& gv) {
  return !isTileDoctors(gv) && !gv.isDeclaration() && gv.getAddressSpace() != 3 && gv.getValueType()->isSized();
}

std::vector<llvm::GlobalVariable*> ownVariables(llvm::Module& m) {
  std::vector<llvm::GlobalVariable*> vars;
  for (llvm::GlobalVariable& gv : m.globals())
    if (isOwnVariable(gv)) vars.push_back(&gv);
  return vars;
}

// A constant table in global memory, and the generic pointer the hooks take to it (null when empty).
llvm::Constant* table(llvm::Module& m, const std::string& name, llvm::Type* elem, const std::vector<llvm::Constant*>& items) {
  llvm::Type* ptr = llvm::PointerType::get(m.getContext(), 0);
  if (items.empty()) return llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr));
  auto* type = llvm::ArrayType::get(elem, items.size());
  // External: the CPU executor reads the variables' table too (the strings a device printf may print).
  auto* gv = new llvm::GlobalVariable(m, type, true, llvm::GlobalValue::ExternalLinkage,
                                      llvm::ConstantArray::get(type, items), name, nullptr,
                                      llvm::GlobalValue::NotThreadLocal, 1);
  return llvm::ConstantExpr::getAddrSpaceCast(gv, ptr);
}

llvm::Constant* generic(llvm::Constant* c) {
  auto* ptr = llvm::PointerType::get(c->getContext(), 0);
  return c->getType() == ptr ? c : llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(c, ptr);
}

// The name a local array has in the source (its debug variable), else its IR name.
std::string localName(llvm::AllocaInst& a) {
  for (llvm::DbgVariableRecord* r : llvm::findDVRDeclares(&a))
    if (r->getVariable()) return r->getVariable()->getName().str();
  for (llvm::DbgDeclareInst* d : llvm::findDbgDeclares(&a))
    if (d->getVariable()) return d->getVariable()->getName().str();
  return a.getName().str();
}

// One object of known size an access's address is computed from: a fixed local array or a variable of
// the module (not shared memory: accesses there only have to stay inside the window).
struct OwnObject {
  llvm::Value* base = nullptr;
  uint64_t bytes = 0;
  std::string what;  // "local variable 'acc'"
};

std::optional<OwnObject> ownObjectOf(llvm::Value* p, const llvm::DataLayout& dl) {
  llvm::Value* o = llvm::getUnderlyingObject(p, 0);
  if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(o); a && a->isStaticAlloca()) {
    std::optional<llvm::TypeSize> size = a->getAllocationSize(dl);
    if (!size || size->isScalable()) return std::nullopt;
    std::string name = localName(*a);
    return OwnObject{a, size->getFixedValue(), name.empty() ? "a local array" : "local variable '" + name + "'"};
  }
  if (auto* arg = llvm::dyn_cast<llvm::Argument>(o); arg && arg->hasByValAttr()) {  // a struct passed by value
    uint64_t bytes = dl.getTypeAllocSize(arg->getParamByValType());
    return OwnObject{arg, bytes, fmt::format("parameter {} (passed by value)", arg->getArgNo())};
  }
  if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(o); gv && isOwnVariable(*gv)) {
    uint64_t bytes = dl.getTypeAllocSize(gv->getValueType());
    return OwnObject{gv, bytes, fmt::format("{} '{}'", gv->getAddressSpace() == 4 ? "__constant__" : "variable",
                                            variableName(*gv))};
  }
  return std::nullopt;
}

// An access at a constant offset inside `base`: confined already, nothing to check.
bool staticallyInside(llvm::Value* p, const llvm::Value* base, uint64_t bytes, unsigned width, const llvm::DataLayout& dl) {
  if (!width) return false;
  llvm::APInt off(dl.getIndexTypeSizeInBits(p->getType()), 0);
  const llvm::Value* from = p->stripAndAccumulateConstantOffsets(dl, off, true);
  if (auto* cast = llvm::dyn_cast<llvm::Operator>(from); cast && cast->getOpcode() == llvm::Instruction::AddrSpaceCast)
    from = cast->getOperand(0);
  return from == base && !off.isNegative() && off.getZExtValue() + width <= bytes;
}

bool isIndirectCall(const llvm::Instruction& i) {
  auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
  return call && !call->getCalledFunction() && !call->isInlineAsm() &&
         !llvm::isa<llvm::Function>(call->getCalledOperand()->stripPointerCasts());
}

}  // namespace

bool containmentOffForBenchmarks() {
  const char* v = std::getenv("TILE_DOCTOR_BENCH_UNCONTAINED");
  return v && std::string(v) == "1";
}

llvm::PreservedAnalyses ContainmentPass::run(llvm::Module& m, llvm::ModuleAnalysisManager&) {
  llvm::LLVMContext& ctx = m.getContext();
  const llvm::DataLayout& dl = m.getDataLayout();
  llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
  llvm::FunctionCallee containAny = hookFunction(m, Hook::contain_any);
  llvm::FunctionCallee containArg = hookFunction(m, Hook::contain_arg);
  llvm::FunctionCallee containShared = hookFunction(m, Hook::contain_shared);
  llvm::FunctionCallee containSharedArray = hookFunction(m, Hook::contain_shared_array);
  llvm::FunctionCallee containObject = hookFunction(m, Hook::contain_object);
  llvm::FunctionCallee containCallee = hookFunction(m, Hook::contain_callee);

  std::vector<llvm::Constant*> objects, functions;
  llvm::StructType* objectType = llvm::StructType::get(ctx, {ptr, i64});
  for (llvm::GlobalVariable* gv : ownVariables(m))
    objects.push_back(llvm::ConstantStruct::get(
        objectType, {generic(gv), llvm::ConstantInt::get(i64, dl.getTypeAllocSize(gv->getValueType()))}));
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && !isTileDoctors(f) && f.hasAddressTaken()) functions.push_back(generic(&f));
  llvm::Constant* objectTable = table(m, globalSymbol(OwnGlobal::contain_objects), objectType, objects);
  llvm::Constant* functionTable = table(m, globalSymbol(OwnGlobal::contain_functions), ptr, functions);
  llvm::Constant* objectCount = llvm::ConstantInt::get(i32, objects.size());
  llvm::Constant* functionCount = llvm::ConstantInt::get(i32, functions.size());

  for (llvm::Function& f : m) {
    if (f.isDeclaration() || isTileDoctors(f)) continue;
    std::vector<Access> accesses;
    collectAccesses(f, accesses);
    llvm::DenseMap<llvm::Instruction*, unsigned> perInstruction;
    for (const Access& a : accesses) ++perInstruction[a.inst];
    std::vector<llvm::Instruction*> calls;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (isIndirectCall(i)) calls.push_back(&i);
    PointerRoots roots;
    for (Access& a : accesses) {
      if (confinedAccesses(*a.inst) >= perInstruction[a.inst] || isWarpCollectiveAsm(a.inst)) continue;
      PointerRoot root = roots.of(a.ptr);
      std::optional<OwnObject> own = ownObjectOf(a.ptr, dl);
      if (own && staticallyInside(a.ptr, own->base, own->bytes, a.width, dl)) continue;
      // A known shared array's bytes (0: the dynamic one, sized at launch).
      uint64_t arrayBytes = root.kind == PointerRoot::SharedVar ? dl.getTypeAllocSize(root.var->getValueType()) : 0;
      if (arrayBytes && staticallyInside(a.ptr, root.var, arrayBytes, a.width, dl)) continue;
      Site s;
      s.kind = a.kind;
      s.loc = userLocation(*a.inst);
      s.size = a.width;
      s.align = a.align;
      if (own) s.what = own->what, s.objectBytes = own->bytes;
      if (root.kind == PointerRoot::KernelArg) s.space = Space::Global, s.object = static_cast<int>(root.argNo);
      unsigned id = table_.add(s);
      llvm::IRBuilder<> b(a.inst);
      setHookLocation(b, a.inst);
      llvm::Value* site = llvm::ConstantInt::get(i32, id);
      llvm::Value* p = genericPointer(b, a.ptr);
      llvm::Value* ok;
      if (own)
        ok = b.CreateCall(containObject, {site, p, a.size, genericPointer(b, own->base), llvm::ConstantInt::get(i64, own->bytes)});
      else if (root.kind == PointerRoot::KernelArg)
        ok = b.CreateCall(containArg, {site, llvm::ConstantInt::get(i32, root.argNo), p, a.size, objectTable, objectCount});
      else if (root.kind == PointerRoot::SharedVar)
        ok = b.CreateCall(containSharedArray, {site, p, a.size, genericPointer(b, root.var),
                                               llvm::ConstantInt::get(i64, arrayBytes), objectTable, objectCount});
      else if (root.shared() || a.ptr->getType()->getPointerAddressSpace() == 3)
        ok = b.CreateCall(containShared, {site, p, a.size, objectTable, objectCount});
      else
        ok = b.CreateCall(containAny, {site, p, a.size, objectTable, objectCount});
      if (siteOf(*a.inst) < 0) tagSite(*a.inst, id);
      guardAccess(a.inst, ok);
    }
    for (llvm::Instruction* i : calls) {
      auto* call = llvm::cast<llvm::CallBase>(i);
      Site s;
      s.kind = SiteKind::Load;
      s.loc = userLocation(*call);
      s.what = kIndirectCallSite;
      unsigned id = table_.add(s);
      llvm::IRBuilder<> b(call);
      setHookLocation(b, call);
      llvm::Value* ok = b.CreateCall(containCallee, {llvm::ConstantInt::get(i32, id),
                                                     genericPointer(b, call->getCalledOperand()), functionTable,
                                                     functionCount});
      if (siteOf(*call) < 0) tagSite(*call, id);
      guardAccess(call, ok);
    }
  }
  return llvm::PreservedAnalyses::none();
}

}  // namespace td
