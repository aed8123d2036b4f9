#include "instrument/external_calls.h"

#include <fmt/format.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "frontend/input_error.h"
#include "instrument/site_table.h"

namespace td {

namespace {

bool providedOnTheGpu(llvm::StringRef name) {
  return name.starts_with("__nv_") || name.starts_with("__td_") || isCudaDeviceRuntime(name);
}

}  // namespace

bool isCudaDeviceRuntime(std::string_view name) {
  return name == "vprintf" || name == "__assertfail" || name == "malloc" || name == "free";
}

void refuseUndefinedFunctions(const llvm::Module& m) {
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
