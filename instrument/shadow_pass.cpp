#include "instrument/shadow_pass.h"

#include "instrument/function_shadows.h"
#include "instrument/shared_objects.h"

namespace td {

void shadowFloatingPoint(llvm::Module& m, SiteTable& sites, const ShadowOptions& options) {
  std::vector<llvm::Function*> user;
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && !f.getName().starts_with("__td_")) user.push_back(&f);
  llvm::DenseMap<const llvm::GlobalVariable*, int> sharedIds = sharedObjectIds(m);
  ShadowlessMemory shadowless(m, sharedIds);  // before any instrumentation
  for (llvm::Function* f : user) shadows::FunctionShadows(*f, sites, options, sharedIds, shadowless).run();
}

}  // namespace td
