#include "instrument/external_calls.h"

#include <fmt/format.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "frontend/input_error.h"
#include "model/site_table.h"
#include "instrument/hook_functions.h"

namespace td {

namespace {

bool providedOnTheGpu(llvm::StringRef name) {
  return name.starts_with("__nv_") || isOwnSymbol(name) || isCudaDeviceRuntime(name);
}

// Constant expressions nest only a few deep (a GEP of a cast of the global).
SourceLoc firstUse(const llvm::Value& v, int depth) {
  for (const llvm::User* u : v.users()) {
    if (auto* inst = llvm::dyn_cast<llvm::Instruction>(u)) return userLocation(*inst);
    if (depth < 4 && llvm::isa<llvm::ConstantExpr>(u))
      if (SourceLoc loc = firstUse(*u, depth + 1); !loc.file.empty()) return loc;
  }
  return {};
}

}  // namespace

bool isCudaDeviceRuntime(std::string_view name) {
  return name == "vprintf" || name == "__assertfail" || name == "malloc" || name == "free";
}

SourceLoc firstUseLocation(const llvm::Value& v) { return firstUse(v, 0); }

void refuseUndefinedFunctions(const llvm::Module& m) {
  // tile-doctor's own variables (the control block, the record channel) are linked in after this: a kernel
  // that declares one to read or write it reaches the checks' memory, which no GPU build has.
  for (const llvm::GlobalVariable& g : m.globals()) {
    if (!g.isDeclaration() || !isOwn(g)) continue;
    SourceLoc loc = firstUseLocation(g);
    if (loc.file.empty()) loc.file = m.getSourceFileName();
    throw InputError(loc.file, static_cast<int>(loc.line),
                     fmt::format("the kernel declares {}: names beginning __td_ are tile-doctor's own (its checks' "
                                 "control data); a kernel may not name them", g.getName().str()));
  }
  for (const llvm::Function& f : m) {
    if (!f.isDeclaration() || f.isIntrinsic() || providedOnTheGpu(f.getName())) continue;
    for (const llvm::User* u : f.users()) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(u);
      if (!call) continue;
      SourceLoc loc = userLocation(*call);
      std::string name = llvm::demangle(f.getName().str());
      throw InputError(loc.file, static_cast<int>(loc.line),
                       fmt::format("the kernel calls {}, a function declared but defined nowhere in device code: "
                                   "a GPU build fails the same way (nvlink: undefined reference to '{}'); define it "
                                   "as a __device__ function or include the header that does",
                                   name, f.getName().str()));
    }
  }
}

}  // namespace td
