#include "tests/families/store_count/store_count_family.h"

#include <fmt/format.h>
#include <cstring>
#include <fstream>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <map>
#include <sstream>
#include <tuple>

#include "model/family.h"
#include "instrument/accesses.h"
#include "model/site_table.h"
#include "model/launch.h"
#include "model/finding.h"
#include "tests/families/store_count/store_count_abi.h"

namespace td::test {

namespace {

std::string here(const std::string& file) {
  std::ifstream in(std::string(TD_TESTS_DIR) + "/families/store_count/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The pass: a call to __td_count_store(site) before every store of the kernel's own code.
void countStores(llvm::Module& m, SiteTable& sites, const std::set<std::string>&, const FamilySettings&) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::FunctionCallee hook =
      m.getOrInsertFunction("__td_count_store", llvm::Type::getVoidTy(ctx), llvm::Type::getInt32Ty(ctx));
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || f.getName().starts_with("__td_")) continue;
    std::vector<llvm::StoreInst*> stores;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) stores.push_back(s);
    for (llvm::StoreInst* s : stores) {
      Site site;
      site.kind = SiteKind::Store;
      site.loc = userLocation(*s);
      unsigned id = sites.add(site);
      llvm::IRBuilder<> b(s);
      setHookLocation(b, s);
      b.CreateCall(hook, {b.getInt32(id)});
    }
  }
}

// The decoder: one finding per source line:column with the stores counted there.
void storeFindings(const LaunchOutcome& out, const SiteTable& sites, const Bundle&, const FamilySettings&,
                   std::vector<Finding>& into) {
  for (const RegionReadback& r : out.readbacks) {
    if (r.id != TD_REGION_STORE_COUNTS) continue;
    std::map<std::tuple<std::string, unsigned, unsigned>, std::pair<SourceLoc, uint64_t>> perLine;
    for (size_t site = 0; site < sites.sites.size() && (site + 1) * 4 <= r.bytes.size(); ++site) {
      uint32_t n = 0;
      std::memcpy(&n, r.bytes.data() + site * 4, 4);
      const SourceLoc& loc = sites.sites[site].loc;
      if (n == 0 || sites.sites[site].kind != SiteKind::Store) continue;
      auto& slot = perLine[{loc.file, loc.line, loc.col}];
      slot.first = loc;
      slot.second += n;
    }
    for (const auto& [key, v] : perLine) {
      Finding f;
      f.kind = kStoreCountKind;
      f.loc = v.first;
      f.count = v.second;
      f.title = fmt::format("{} stores", v.second);
      into.push_back(f);
    }
  }
}

}  // namespace

Family storeCountFamily() {
  Family f;
  f.name = "store-count";
  f.summary = "stores counted per source site (a test's toy family)";
  f.byDefault = false;  // a count, not a check: only when named
  f.regions = {{TD_REGION_STORE_COUNTS, regionOf(TD_SCOPE_GRID, TD_REGION_READ_BACK, 0, 0, 4)}};
  f.deviceSources = {"tests/families/store_count/store_count_runtime.cu"};
  f.deviceFiles = {{"tests/families/store_count/store_count_runtime.cu", here("store_count_runtime.cu")},
                   {"tests/families/store_count/store_count_abi.h", here("store_count_abi.h")}};
  f.ownHooks = {"__td_count_store"};
  f.instrument = countStores;
  f.collect = storeFindings;
  f.rules = {{kStoreCountKind, "store-count", Severity::Warning, "Stores at a source site",
              "How many stores the threads of the launch made at this line (the test-only store-count family).",
              "Nothing to cure: it is a count.", {"location"}}};
  return f;
}

// Where the family list already has it (built in), nothing to add or take away.
ScopedStoreCountFamily::ScopedStoreCountFamily() : added(!findFamily("store-count")) {
  if (added) registerFamily(storeCountFamily());
}
ScopedStoreCountFamily::~ScopedStoreCountFamily() {
  if (added) unregisterFamily("store-count");
}

}  // namespace td::test
