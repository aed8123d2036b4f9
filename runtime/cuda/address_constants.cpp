#include "runtime/cuda/address_constants.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>

namespace td::cuda {

namespace {

constexpr unsigned kConstantSpace = 4;  // NVPTX's .const: cached, and uniform loads are broadcast

// Where a replacement for use `u` of an instruction is computed: before it, or for a phi at the end of
// the incoming block.
llvm::Instruction* insertionPoint(llvm::Use& u) {
  auto* user = llvm::cast<llvm::Instruction>(u.getUser());
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) return phi->getIncomingBlock(u)->getTerminator();
  return user;
}

bool mentions(const llvm::Constant* c, const llvm::GlobalVariable* symbol) {
  if (c == symbol) return true;
  for (const llvm::Use& op : c->operands())
    if (auto* inner = llvm::dyn_cast<llvm::Constant>(op.get()); inner && mentions(inner, symbol)) return true;
  return false;
}

}  // namespace

std::string addressConstant(const std::string& symbol) { return symbol + "_addr"; }

void moveAddressesToConstants(llvm::Module& m, const std::string& kernel, const std::map<std::string, uint64_t>& values,
                              const std::map<unsigned, std::string>& pointerSymbols) {
  std::map<std::string, unsigned> argumentOf;
  for (const auto& [argument, symbol] : pointerSymbols) argumentOf[symbol] = argument;
  llvm::Type* i64 = llvm::Type::getInt64Ty(m.getContext());
  llvm::Function* entry = m.getFunction(kernel);
  for (const auto& symbolValue : values) {  // the values themselves the executor writes; here only their names
    const std::string& name = symbolValue.first;
    llvm::GlobalVariable* symbol = m.getGlobalVariable(name);
    if (!symbol || !symbol->isDeclaration()) continue;
    llvm::convertUsersOfConstantsToInstructions({symbol});  // getelementptr(@sym, 64) and the like
    llvm::GlobalVariable* slot = nullptr;
    auto argument = argumentOf.find(name);
    for (llvm::Use& u : llvm::make_early_inc_range(symbol->uses())) {
      auto* user = llvm::dyn_cast<llvm::Instruction>(u.getUser());
      if (!user) continue;
      llvm::IRBuilder<> b(insertionPoint(u));
      llvm::Value* address;
      if (argument != argumentOf.end() && entry && user->getFunction() == entry && argument->second < entry->arg_size() &&
          entry->getArg(argument->second)->getType()->isPointerTy()) {
        address = entry->getArg(argument->second);
      } else {
        if (!slot) {
          slot = new llvm::GlobalVariable(m, i64, false, llvm::GlobalValue::ExternalLinkage,
                                          llvm::ConstantInt::get(i64, 0), addressConstant(name), nullptr,
                                          llvm::GlobalValue::NotThreadLocal, kConstantSpace, true);
          slot->setAlignment(llvm::Align(8));
        }
        llvm::LoadInst* load = b.CreateLoad(i64, slot, name);
        load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(m.getContext(), {}));
        address = b.CreateIntToPtr(load, b.getPtrTy());
      }
      u.set(b.CreatePointerBitCastOrAddrSpaceCast(address, symbol->getType()));
    }
    if (!symbol->use_empty()) {
      // Left in a global's initializer (the control block, which the hooks that stay functions index at run
      // time): zero in the text; the executor writes the run's bytes after loading, and nothing may fold the
      // zero meanwhile.
      for (llvm::GlobalVariable& g : m.globals())
        if (g.hasInitializer() && mentions(g.getInitializer(), symbol)) g.setConstant(false);
      symbol->replaceAllUsesWith(llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(symbol->getType())));
    }
    symbol->eraseFromParent();
  }
}

}  // namespace td::cuda
