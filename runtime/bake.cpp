#include "runtime/bake.h"

#include <cstring>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>
#include <map>
#include <stdexcept>
#include <vector>

namespace td {

namespace {

// Lays out a constant of type t from bytes p, which sit `at` bytes into the baked global; the non-zero
// 64-bit words at offsets in `symbols` become those symbols' addresses instead of their value.
class Layout {
 public:
  Layout(llvm::Module& m, const std::map<uint64_t, std::string>& symbols, uint64_t alignment = 4096)
      : m_(m), dl_(m.getDataLayout()), symbols_(symbols), alignment_(alignment) {}

  llvm::Constant* fromBytes(llvm::Type* t, const char* p, uint64_t at) {
    if (auto* it = llvm::dyn_cast<llvm::IntegerType>(t)) {
      uint64_t v = 0;
      std::memcpy(&v, p, it->getBitWidth() / 8);
      if (llvm::GlobalVariable* g = symbolAt(at, v, it->getBitWidth())) return llvm::ConstantExpr::getPtrToInt(g, it);
      return llvm::ConstantInt::get(it, v);
    }
    if (t->isPointerTy()) {
      uint64_t v;
      std::memcpy(&v, p, 8);
      if (llvm::GlobalVariable* g = symbolAt(at, v, 64)) return g;
      return llvm::ConstantExpr::getIntToPtr(llvm::ConstantInt::get(llvm::Type::getInt64Ty(t->getContext()), v), t);
    }
    if (auto* at_ = llvm::dyn_cast<llvm::ArrayType>(t)) {
      std::vector<llvm::Constant*> elems;
      uint64_t stride = dl_.getTypeAllocSize(at_->getElementType());
      for (uint64_t i = 0; i < at_->getNumElements(); ++i)
        elems.push_back(fromBytes(at_->getElementType(), p + i * stride, at + i * stride));
      return llvm::ConstantArray::get(at_, elems);
    }
    if (auto* st = llvm::dyn_cast<llvm::StructType>(t)) {
      const llvm::StructLayout* sl = dl_.getStructLayout(st);
      std::vector<llvm::Constant*> fields;
      for (unsigned i = 0; i < st->getNumElements(); ++i)
        fields.push_back(fromBytes(st->getElementType(i), p + sl->getElementOffset(i), at + sl->getElementOffset(i)));
      return llvm::ConstantStruct::get(st, fields);
    }
    throw std::logic_error("bakeGlobal: unsupported field type");
  }

 private:
  // An external symbol for an address word, aligned as the executor's mappings are, bound at link time.
  llvm::GlobalVariable* symbolAt(uint64_t at, uint64_t value, unsigned bits) {
    auto it = symbols_.find(at);
    if (it == symbols_.end() || value == 0 || bits != 64) return nullptr;
    if (llvm::GlobalVariable* g = m_.getGlobalVariable(it->second)) return g;
    auto* g = new llvm::GlobalVariable(m_, llvm::Type::getInt8Ty(m_.getContext()), false,
                                       llvm::GlobalValue::ExternalLinkage, nullptr, it->second);
    g->setAlignment(llvm::Align(alignment_));
    return g;
  }

  llvm::Module& m_;
  const llvm::DataLayout& dl_;
  const std::map<uint64_t, std::string>& symbols_;
  uint64_t alignment_;
};

}  // namespace

void bakeArguments(llvm::Module& m, const std::string& kernel, const std::vector<const void*>& values,
                   const std::map<unsigned, std::string>& pointerSymbols) {
  llvm::Function* f = m.getFunction(kernel);
  if (!f || f->arg_size() != values.size()) throw std::logic_error("bakeArguments: kernel signature mismatch");
  const llvm::DataLayout& dl = m.getDataLayout();
  for (llvm::Argument& a : f->args()) {
    llvm::Type* t = a.getType();
    if (!t->isPointerTy() && !t->isIntegerTy() && !t->isFloatingPointTy()) continue;  // aggregates stay
    if (a.hasByValAttr()) continue;  // a struct passed by value (a TMA descriptor) stays a parameter
    const char* bytes = static_cast<const char*>(values[a.getArgNo()]);
    llvm::Constant* c;
    auto named = pointerSymbols.find(a.getArgNo());
    llvm::GlobalVariable* symbol = named != pointerSymbols.end() ? m.getGlobalVariable(named->second) : nullptr;
    if (t->isPointerTy() && symbol) {
      c = llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(symbol, t);
    } else if (t->isFloatingPointTy()) {
      unsigned bits = static_cast<unsigned>(dl.getTypeSizeInBits(t));
      uint64_t raw = 0;
      std::memcpy(&raw, bytes, bits / 8);
      c = llvm::ConstantFP::get(t->getContext(), llvm::APFloat(t->getFltSemantics(), llvm::APInt(bits, raw)));
    } else {
      c = Layout(m, {}).fromBytes(t, bytes, 0);
    }
    a.replaceAllUsesWith(c);
  }
}

void bakeGlobal(llvm::Module& m, const char* name, const void* bytes, size_t size,
                const std::map<uint64_t, std::string>& addressSymbols, uint64_t symbolAlignment) {
  llvm::GlobalVariable* gv = m.getGlobalVariable(name);
  if (!gv) throw std::logic_error(std::string("bakeGlobal: no global ") + name);
  const llvm::DataLayout& dl = m.getDataLayout();
  if (dl.getTypeAllocSize(gv->getValueType()) != size)
    throw std::logic_error(std::string("bakeGlobal: ") + name + " differs in size from the host's structure");
  gv->setInitializer(Layout(m, addressSymbols, symbolAlignment).fromBytes(gv->getValueType(), static_cast<const char*>(bytes), 0));
  gv->setConstant(true);
  gv->setExternallyInitialized(false);  // clang marks __device__ variables so (the host may write them): not now
}

}  // namespace td
