// Family "bounds": every global and shared access checked against its buffer or array (instrument/
// bounds_pass), out-of-bounds and misaligned accesses recorded and skipped. No device state of its own.
#include "model/family.h"
#include "checks/bounds/bounds_findings.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

#include "checks/bounds/bounds_pass.h"

namespace td {

namespace {

void guardAccesses(llvm::Module& m, SiteTable& sites, const std::set<std::string>&, const FamilySettings&) {
  llvm::ModuleAnalysisManager mam;
  BoundsCheckPass(sites).run(m, mam);
}

}  // namespace

std::vector<Rule> boundsRules();  // bounds_rules.cpp

Family boundsFamily() {
  Family f;
  f.name = "bounds";
  f.rules = boundsRules();
  f.readsAmdgpuIr = true;
  f.summary = "accesses outside their buffer or shared array, and misaligned ones";
  f.deviceSources = {"checks/bounds/bounds_runtime.cu"};
  f.instrument = guardAccesses;
  f.recordKinds = {TD_KIND_GLOBAL_OOB, TD_KIND_SHARED_OOB, TD_KIND_MISALIGNED};
  f.decode = boundsFinding;
  return f;
}

}  // namespace td
