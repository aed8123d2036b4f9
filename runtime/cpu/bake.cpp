#include "runtime/cpu/bake.h"

#include <cstring>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>
#include <stdexcept>
#include <vector>

namespace td::cpu {

namespace {

llvm::Constant* fromBytes(llvm::Type* t, const char* p, const llvm::DataLayout& dl) {
  if (auto* it = llvm::dyn_cast<llvm::IntegerType>(t)) {
    uint64_t v = 0;
    std::memcpy(&v, p, it->getBitWidth() / 8);
    return llvm::ConstantInt::get(it, v);
  }
  if (t->isPointerTy()) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return llvm::ConstantExpr::getIntToPtr(llvm::ConstantInt::get(llvm::Type::getInt64Ty(t->getContext()), v), t);
  }
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(t)) {
    std::vector<llvm::Constant*> elems;
    uint64_t stride = dl.getTypeAllocSize(at->getElementType());
    for (uint64_t i = 0; i < at->getNumElements(); ++i) elems.push_back(fromBytes(at->getElementType(), p + i * stride, dl));
    return llvm::ConstantArray::get(at, elems);
  }
  if (auto* st = llvm::dyn_cast<llvm::StructType>(t)) {
    const llvm::StructLayout* sl = dl.getStructLayout(st);
    std::vector<llvm::Constant*> fields;
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      fields.push_back(fromBytes(st->getElementType(i), p + sl->getElementOffset(i), dl));
    return llvm::ConstantStruct::get(st, fields);
  }
  throw std::logic_error("bakeGlobal: unsupported field type");
}

}  // namespace

void bakeArguments(llvm::Module& m, const std::string& kernel, const std::vector<const void*>& values) {
  llvm::Function* f = m.getFunction(kernel);
  if (!f || f->arg_size() != values.size()) throw std::logic_error("bakeArguments: kernel signature mismatch");
  const llvm::DataLayout& dl = m.getDataLayout();
  for (llvm::Argument& a : f->args()) {
    llvm::Type* t = a.getType();
    if (!t->isPointerTy() && !t->isIntegerTy() && !t->isFloatingPointTy()) continue;  // aggregates stay
    const char* bytes = static_cast<const char*>(values[a.getArgNo()]);
    llvm::Constant* c;
    if (t->isFloatingPointTy()) {
      unsigned bits = static_cast<unsigned>(dl.getTypeSizeInBits(t));
      uint64_t raw = 0;
      std::memcpy(&raw, bytes, bits / 8);
      c = llvm::ConstantFP::get(t->getContext(), llvm::APFloat(t->getFltSemantics(), llvm::APInt(bits, raw)));
    } else {
      c = fromBytes(t, bytes, dl);
    }
    a.replaceAllUsesWith(c);
  }
}

void bakeGlobal(llvm::Module& m, const char* name, const void* bytes, size_t size) {
  llvm::GlobalVariable* gv = m.getGlobalVariable(name);
  if (!gv) throw std::logic_error(std::string("bakeGlobal: no global ") + name);
  const llvm::DataLayout& dl = m.getDataLayout();
  if (dl.getTypeAllocSize(gv->getValueType()) != size)
    throw std::logic_error(std::string("bakeGlobal: ") + name + " differs in size from the host's structure");
  gv->setInitializer(fromBytes(gv->getValueType(), static_cast<const char*>(bytes), dl));
  gv->setConstant(true);
  gv->setExternallyInitialized(false);  // clang marks __device__ variables so (the host may write them): not now
}

}  // namespace td::cpu
