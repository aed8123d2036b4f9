#include "instrument/hook_functions.h"

#include <vector>

namespace td {
namespace {

template <typename T>
llvm::Type* llvmType(llvm::LLVMContext& ctx) {
  if constexpr (std::is_void_v<T>) return llvm::Type::getVoidTy(ctx);
  else if constexpr (std::is_same_v<T, bool>) return llvm::Type::getInt1Ty(ctx);
  else if constexpr (std::is_pointer_v<T>) return llvm::PointerType::getUnqual(ctx);
  else if constexpr (std::is_same_v<T, float>) return llvm::Type::getFloatTy(ctx);
  else if constexpr (std::is_same_v<T, double>) return llvm::Type::getDoubleTy(ctx);
  else return llvm::Type::getIntNTy(ctx, 8 * sizeof(T));
}

template <typename F>
struct FunctionTypeOf;
template <typename R, typename... A>
struct FunctionTypeOf<R(A...)> {
  static llvm::FunctionType* get(llvm::LLVMContext& ctx) {
    std::vector<llvm::Type*> params = {llvmType<A>(ctx)...};
    return llvm::FunctionType::get(llvmType<R>(ctx), params, false);
  }
};

}  // namespace

llvm::FunctionType* hookType(llvm::LLVMContext& ctx, Hook h) {
  switch (h) {
#define TD_HOOK(name, ...) \
  case Hook::name:         \
    return FunctionTypeOf<hook_c::name>::get(ctx);
#include "model/hooks.def"
  }
  return nullptr;
}

llvm::FunctionCallee hookFunction(llvm::Module& m, Hook h) {
  return m.getOrInsertFunction(hookSymbol(h), hookType(m.getContext(), h));
}

}  // namespace td
