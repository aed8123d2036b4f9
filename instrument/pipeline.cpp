#include "instrument/pipeline.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <sstream>

#include "frontend/compile_cache.h"
#include "frontend/compiler.h"
#include "frontend/input_error.h"
#include "frontend/signature.h"
#include "model/family.h"
#include "instrument/accesses.h"
#include "instrument/containment_pass.h"
#include "instrument/shared_objects.h"
#include "instrument/pointer_roots.h"
#include "instrument/loop_sites.h"
#include "instrument/stop_sites.h"
#include "instrument/sync_sites.h"
#include "instrument/external_calls.h"
#include "instrument/fp_contraction.h"
#include "instrument/local_alignment.h"
#include "instrument/small_copies.h"
#include "instrument/hook_functions.h"

namespace td {

std::set<std::string> CheckSet::known() {
  std::set<std::string> k;  // built each time: a test may have added a family since
  for (const Family& f : td::families()) k.insert(f.name);
  return k;
}

CheckSet CheckSet::parse(const std::string& list, const FamilySettings& settings) {
  CheckSet c;
  c.settings = settings;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    if (item == "all") {  // the families on by default; the others are named
      for (const Family& f : td::families())
        if (f.byDefault) c.families.insert(f.name);
      continue;
    }
    if (!findFamily(item))
      throw InputError("--checks", 0, fmt::format("unknown check family '{}' (implemented: {}, or all)", item, familyNames()));
    c.families.insert(item);
  }
  for (const auto& [name, value] : settings) {
    const Family* owner = nullptr;
    for (const Family& f : td::families())
      for (const FamilyOption& o : f.options)
        if (o.name == name) owner = &f;
    if (!owner) throw InputError("--" + name, 0, "no check family takes this setting");
    if (!c.has(owner->name))
      throw InputError("--" + name, 0,
                       fmt::format("applies to the {} family, which is not enabled: add it (--checks {} or --checks all,{})",
                                   owner->name, owner->name, owner->name));
  }
  for (const Family& f : td::families())
    if (f.checkSettings && c.has(f.name)) f.checkSettings(settings);
  return c;  // empty: an unchecked run (a script's later launches); the CLI refuses an empty --checks
}

CheckSet CheckSet::asWritten() {
  CheckSet c = parse("launch");
  c.contain = false;
  return c;
}

llvm::Function* findKernel(llvm::Module& m, const std::string& entry) {
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || !isKernel(f)) continue;
    if (f.getName() == entry) return &f;
    std::string d = llvm::demangle(f.getName().str());
    if (d.substr(0, d.find('(')) == entry) return &f;
  }
  return nullptr;
}

namespace {

std::string kernelNames(llvm::Module& m) {
  std::string names;
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && isKernel(f)) {
      std::string d = llvm::demangle(f.getName().str());
      names += (names.empty() ? "" : ", ") + d.substr(0, d.find('('));
    }
  return names.empty() ? "none" : names;
}

// 'inbounds' lets LLVM assume an index stays inside its object — exactly what the checks must not assume.
void dropInboundsAssumptions(llvm::Module& m) {
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i)) gep->setNoWrapFlags(llvm::GEPNoWrapFlags::none());
}

// TMA descriptors arrive as __grid_constant__ parameters: the TMA unit reads them where the launch put
// them (param space). Clang 19 drops the attribute, so the NVPTX back end would copy a descriptor whose
// address is taken to the thread's local memory, where TMA cannot read it. The annotation clang 20 writes
// for it, "grid_constant" with the 1-based parameter numbers, is written here instead.
void markGridConstants(llvm::Function& kernel, const Bundle& b) {
  llvm::LLVMContext& ctx = kernel.getContext();
  std::vector<llvm::Metadata*> params;
  for (size_t i = 0; i < b.args.size(); ++i)
    if (b.args[i].isTensorMap)
      params.push_back(llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), i + 1)));
  if (params.empty()) return;
  llvm::Metadata* node[] = {llvm::ConstantAsMetadata::get(&kernel), llvm::MDString::get(ctx, "grid_constant"),
                            llvm::MDNode::get(ctx, params)};
  kernel.getParent()->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(ctx, node));
}

// The bundle checks one kernel: the source's other kernels, and what only they use (their __shared__
// arrays above all), leave the module — so the entry's shared memory is its own, not the file's total,
// and nothing else is instrumented. Device functions nothing calls leave too, whatever their linkage
// (no later link step can call them): a header's helper written for another GPU (an AMD asm statement in
// tl_templates/hip) is not the kernel's code.
void keepOnlyEntry(llvm::Module& m, llvm::Function* entry) {
  std::vector<llvm::Function*> others;
  for (llvm::Function& f : m)
    if (&f != entry && !f.isDeclaration() && isKernel(f)) others.push_back(&f);
  if (llvm::NamedMDNode* ann = others.empty() ? nullptr : m.getNamedMetadata("nvvm.annotations")) {
    std::vector<llvm::MDNode*> keep;
    for (llvm::MDNode* n : ann->operands()) {
      auto* fn = n->getNumOperands() ? llvm::mdconst::dyn_extract_or_null<llvm::Function>(n->getOperand(0)) : nullptr;
      if (!fn || std::find(others.begin(), others.end(), fn) == others.end()) keep.push_back(n);
    }
    ann->clearOperands();
    for (llvm::MDNode* n : keep) ann->addOperand(n);
  }
  for (llvm::Function* f : others) {
    f->replaceAllUsesWith(llvm::PoisonValue::get(f->getType()));
    f->eraseFromParent();
  }
  for (bool changed = true; changed;) {  // what nothing uses any more
    changed = false;
    for (llvm::Function& f : llvm::make_early_inc_range(m))
      if (f.removeDeadConstantUsers(), &f != entry && !f.isDeclaration() && f.use_empty()) {
        f.eraseFromParent();
        changed = true;
      }
    for (llvm::GlobalVariable& g : llvm::make_early_inc_range(m.globals()))
      if (g.removeDeadConstantUsers(), g.getAddressSpace() == 3 && g.use_empty()) {
        g.eraseFromParent();
        changed = true;
      }
  }
}

// Each kernel starts by setting up its block's regions (an executor primitive: the GPU zeroes those it
// keeps in shared memory). After the entry's allocas: the GPU's primitive is a loop, and allocas the
// inlined loop left behind it would no longer be in the entry block, where the optimiser promotes them to
// registers (the numerics family's tallies took 1,280 bytes of local memory per thread in the GEMM).
void startBlocks(llvm::Module& m) {
  llvm::FunctionCallee start = hookFunction(m, Hook::block_start);
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || !isKernel(f)) continue;
    llvm::BasicBlock& entry = f.getEntryBlock();
    llvm::Instruction* first = &*entry.getFirstInsertionPt();
    llvm::IRBuilder<> b(first);
    setHookLocation(b, first);
    llvm::CallInst* call = b.CreateCall(start, {});
    for (llvm::Instruction& i : llvm::make_early_inc_range(entry))
      if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i); a && a->isStaticAlloca()) a->moveBefore(call);
  }
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// The runtime's annotate("X") marks (td_core.cuh: TD_INLINE_ON_CPU) become function attributes X, for the
// executors to read; the annotation table itself goes, or it would keep every hook alive.
void annotationsToAttributes(llvm::Module& m) {
  llvm::GlobalVariable* table = m.getGlobalVariable("llvm.global.annotations");
  if (!table) return;
  if (auto* entries = llvm::dyn_cast<llvm::ConstantArray>(table->getInitializer()))
    for (llvm::Value* e : entries->operands()) {
      auto* entry = llvm::dyn_cast<llvm::ConstantStruct>(e);
      if (!entry || entry->getNumOperands() < 2) continue;
      auto* fn = llvm::dyn_cast<llvm::Function>(entry->getOperand(0)->stripPointerCasts());
      auto* text = llvm::dyn_cast<llvm::GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
      auto* data = text && text->hasInitializer() ? llvm::dyn_cast<llvm::ConstantDataSequential>(text->getInitializer()) : nullptr;
      if (fn && data && data->isCString()) fn->addFnAttr(data->getAsCString());
    }
  table->eraseFromParent();
}

std::unique_ptr<llvm::Module> compileDeviceRuntime(llvm::LLVMContext& ctx) {
  CompileOptions opts;
  opts.optLevel = "-O2";
  for (const DeviceFile& f : deviceRuntimeFiles()) opts.preludeFiles.emplace_back(f.path, f.text);
  // Through the cache: clang's parse of the runtime was a sixth of a repeated check's time (the GPU's too).
  std::unique_ptr<llvm::Module> rt =
      compileEmbeddedCached(ctx, "/__tile_doctor__/src/td_runtime.cu", deviceRuntimeSource(), opts);
  annotationsToAttributes(*rt);
  return rt;
}

void linkDeviceRuntime(llvm::Module& m) {
  std::unique_ptr<llvm::Module> rt = compileDeviceRuntime(m.getContext());
  rt->setDataLayout(m.getDataLayout());
  rt->setTargetTriple(m.getTargetTriple());
  if (llvm::Linker::linkModules(m, std::move(rt)))
    throw std::runtime_error("linking the device runtime failed");
  // The runtime's hooks; its primitives stay declarations, for the executor to provide.
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && isOwn(f)) f.setLinkage(llvm::GlobalValue::InternalLinkage);
}

KernelModule buildKernelModule(const Bundle& bundle, const CheckSet& checks, const std::vector<std::string>& ignores) {
  KernelModule km;
  km.ctx = std::make_unique<llvm::LLVMContext>();
  auto t0 = std::chrono::steady_clock::now();
  if (!bundle.irPath.empty()) {
    km.module = loadIR(*km.ctx, bundle.irPath);
  } else {
    CompileOptions opts;
    opts.flags = bundle.flags;
    opts.includeDirs = bundle.includeDirs;
    opts.readRoots = {bundle.dir};
    opts.arch = bundle.arch;
    opts.selfContained = bundle.headers == "none";
    opts.dialect = bundle.dialect;
    if (bundle.headers == "cuda") {
      opts.cudaSdk = findCudaSdk();
      if (opts.cudaSdk.empty())
        throw InputError(bundle.manifestPath, bundle.headersLine,
                         "headers = \"cuda\" needs the CUDA SDK's headers, and none were found (looked at $CUDA_HOME, "
                         "$CUDA_PATH and /usr/local/cuda for include/cuda_runtime.h)");
    }
    km.module = compileCudaCached(*km.ctx, bundle.sourcePath, opts);
  }
  km.compileSeconds = secondsSince(t0);

  llvm::Function* kernel = findKernel(*km.module, bundle.entry);
  if (!kernel)
    throw InputError(bundle.manifestPath, bundle.entryLine,
                     fmt::format("entry '{}' is not a __global__ function of {} (kernels found: {})", bundle.entry,
                                 bundle.irPath.empty() ? bundle.sourcePath : bundle.irPath, kernelNames(*km.module)));
  km.entrySymbol = kernel->getName().str();
  checkSignature(*kernel, bundle);
  markGridConstants(*kernel, bundle);
  keepOnlyEntry(*km.module, kernel);
  km.privateMemory = privateMemoryOf(*kernel);
  km.launchBounds = launchBoundsOf(*kernel);
  km.features = hardwareFeaturesUsed(*km.module, bundle);
  km.ignored = dropIgnoredStatements(*km.module, ignores);
  refuseUndefinedFunctions(*km.module);
  settleContraction(*km.module);  // the same arithmetic checked or not, on any host
  splitSmallCopies(*km.module);   // an assignment clang wrote as a copy is checked as an assignment
  alignLocalArraysForTheirAccesses(*km.module);  // a local array a check keeps in memory takes its vector loads

  t0 = std::chrono::steady_clock::now();
  instrumentModule(*km.module, km.sites, checks);
  km.contained = checks.contain;
  linkDeviceRuntime(*km.module);
  std::string err;
  llvm::raw_string_ostream es(err);
  if (llvm::verifyModule(*km.module, &es)) throw std::runtime_error("instrumented module is invalid: " + es.str());
  km.instrumentSeconds = secondsSince(t0);
  return km;
}

void instrumentModule(llvm::Module& m, SiteTable& sites, const CheckSet& checks) {
  dropInboundsAssumptions(m);
  registerSharedObjects(m, sites);
  llvm::ModuleAnalysisManager mam;
  StopSitesPass(sites).run(m, mam);
  SyncSitesPass(sites).run(m, mam);
  LoopSitesPass(sites).run(m, mam);
  std::vector<decltype(Family::instrument)> done;  // families that share instrumentation name one function
  for (const Family& f : families())
    if (checks.has(f.name) && f.instrument && std::find(done.begin(), done.end(), f.instrument) == done.end()) {
      f.instrument(m, sites, checks.families, checks.settings);
      done.push_back(f.instrument);
    }
  if (checks.contain) ContainmentPass(sites).run(m, mam);  // last: what the families confine is left to them
  // An enabled family with device state: the block sets it up first.
  if (std::any_of(families().begin(), families().end(),
                  [&](const Family& f) { return checks.has(f.name) && !f.regions.empty(); }))
    startBlocks(m);
}

}  // namespace td
