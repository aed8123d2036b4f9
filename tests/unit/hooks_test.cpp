// model/hooks.def is the one place hook names and signatures are written: the device runtime defines
// every check hook with the catalogue's type, the GPU's primitives file defines every primitive, and no
// function of tile-doctor's own prefix escapes the catalogue.
#include <gtest/gtest.h>
#include <set>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "instrument/hook_functions.h"
#include "instrument/pipeline.h"
#include "model/family.h"
#include "runtime/cuda/ptx.h"

using namespace td;

namespace {

std::string typeText(const llvm::FunctionType* t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t->print(os);
  return s;
}

// The catalogue's type against the definition's, bool returns (clang's i1 zeroext) alike.
void expectCatalogueType(const llvm::Function& f, Hook h) {
  llvm::FunctionType* want = hookType(f.getContext(), h);
  EXPECT_EQ(typeText(want), typeText(f.getFunctionType())) << f.getName().str() << " differs from model/hooks.def";
}

}  // namespace

TEST(Hooks, TheDeviceRuntimeDefinesEveryCheckHookAsCatalogued) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> rt = compileDeviceRuntime(ctx);
  int checked = 0;
  for (const HookInfo& h : kHooks) {
    llvm::Function* f = rt->getFunction(hookSymbol(h.id));
    if (h.floor == HookFloor::Check) {
      ASSERT_TRUE(f && !f->isDeclaration()) << hookSymbol(h.id) << " is catalogued but the device runtime does not define it";
      expectCatalogueType(*f, h.id);
      ++checked;
    } else if (h.floor == HookFloor::Primitive && f) {
      EXPECT_TRUE(f->isDeclaration()) << hookSymbol(h.id) << " is a primitive: the executors define it";
      expectCatalogueType(*f, h.id);
    }
  }
  EXPECT_GE(checked, 20);
  std::set<std::string> familiesOwn;  // a family kept in its folder alone names its hooks itself
  for (const Family& family : families()) familiesOwn.insert(family.ownHooks.begin(), family.ownHooks.end());
  for (const llvm::Function& f : *rt) {
    Hook h;
    if (!f.isDeclaration() && !f.hasLocalLinkage() && isOwn(f))
      EXPECT_TRUE(hookOfSymbol(f.getName(), h) || familiesOwn.count(f.getName().str()))
          << f.getName().str() << " is a hook neither model/hooks.def nor its family lists";
  }
}

TEST(Hooks, TheGpuDefinesEveryPrimitiveAsCatalogued) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> prims = cuda::compileGpuPrimitives(ctx);
  for (const HookInfo& h : kHooks) {
    if (h.floor != HookFloor::Primitive) continue;
    llvm::Function* f = prims->getFunction(hookSymbol(h.id));
    ASSERT_TRUE(f && !f->isDeclaration()) << hookSymbol(h.id) << " has no definition for the GPU";
    expectCatalogueType(*f, h.id);
  }
}

TEST(Hooks, PassesDeclareHooksWithTheCatalogueType) {
  llvm::LLVMContext ctx;
  llvm::Module m("m", ctx);
  llvm::FunctionCallee c = hookFunction(m, Hook::race_shared);
  auto* f = llvm::cast<llvm::Function>(c.getCallee());
  EXPECT_EQ("__td_race_shared", f->getName().str());
  EXPECT_EQ("void (i32, ptr, i32, i32, ptr, i64, i32, i64, i64)", typeText(f->getFunctionType()));
  Hook h;
  EXPECT_TRUE(hookOfSymbol("__td_cpu_warp", h));
  EXPECT_EQ(Hook::cpu_warp, h);
  EXPECT_EQ(HookFloor::HostCall, hookInfo(h).floor);
  EXPECT_FALSE(hookOfSymbol("__td_no_such_hook", h));
  EXPECT_FALSE(hookOfSymbol("race_shared", h));
}
