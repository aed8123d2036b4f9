#include "checks/numerics/shadow_pass.h"

#include "checks/numerics/function_shadows.h"
#include "instrument/shared_objects.h"
#include "instrument/hook_functions.h"

namespace td {

void shadowFloatingPoint(llvm::Module& m, SiteTable& sites, const ShadowOptions& options) {
  std::vector<llvm::Function*> user;
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && !isOwn(f)) user.push_back(&f);
  llvm::DenseMap<const llvm::GlobalVariable*, int> sharedIds = sharedObjectIds(m);
  ShadowlessMemory shadowless(m, sharedIds);  // before any instrumentation
  for (llvm::Function* f : user) shadows::FunctionShadows(*f, sites, options, sharedIds, shadowless).run();
}

}  // namespace td
