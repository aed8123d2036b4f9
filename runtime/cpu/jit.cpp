#include "runtime/cpu/jit.h"

#include <cstdlib>
#include <dlfcn.h>
#include <set>
#include <llvm/Support/raw_ostream.h>
#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include "frontend/input_error.h"
#include "instrument/external_calls.h"
#include "runtime/cpu/host_abi.h"
#include "runtime/cpu/host_library.h"
#include "runtime/cpu/object_cache.h"
#include "model/hooks.h"

namespace td::cpu {

namespace {

template <class T>
T check(llvm::Expected<T> v, const char* what) {
  if (!v) throw std::runtime_error(fmt::format("{}: {}", what, llvm::toString(v.takeError())));
  return std::move(*v);
}
void check(llvm::Error e, const char* what) {
  if (e) throw std::runtime_error(fmt::format("{}: {}", what, llvm::toString(std::move(e))));
}

void optimize(llvm::Module& m, llvm::TargetMachine& tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  if (const char* extra = std::getenv("TILE_DOCTOR_EXTRA_PASSES")) {  // experiments
    if (auto err = pb.parsePassPipeline(mpm, extra)) llvm::consumeError(std::move(err));
  }
  mpm.run(m, mam);
}

// A function the module uses that nothing here binds — a runtime-looking `__td_` name the runtime does not
// define, a host function whose address the kernel takes — is the kernel's error, found before linking
// (where it was an internal "symbol not found"). __nv_ math is bound, or refused, by add().
void refuseUnboundFunctions(const llvm::Module& m, const std::map<std::string, uint64_t>& addressSymbols) {
  static const std::set<std::string> runtime = [] {
    std::set<std::string> names;
    for (const auto& entry : hostSymbols()) names.insert(entry.first);
    return names;
  }();
  for (const llvm::Function& f : m) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty() || f.getName().starts_with("__nv_")) continue;
    std::string name = f.getName().str();
    if (runtime.count(name) || addressSymbols.count(name) || kernelMayBind(name)) continue;
    SourceLoc loc = firstUseLocation(f);
    if (loc.file.empty()) loc.file = m.getSourceFileName();
    throw InputError(loc.file, static_cast<int>(loc.line),
                     fmt::format("the kernel uses {}, a function neither its device code nor the CPU executor's "
                                 "runtime defines (a GPU build fails the same way: undefined reference)",
                                 isOwnSymbol(name) ? name + " (tile-doctor's own prefix)" : name));
  }
}

}  // namespace

CpuJit::CpuJit() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jtmb = check(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  // Position-independent code reaches the symbols bound at link time (this run's addresses) through the
  // GOT, wherever they are mapped: the same object serves every run.
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  jtmb.setCodeModel(llvm::CodeModel::Small);
  // Code the optimiser proved unreachable (undefined behaviour in the kernel: a read of an uninitialised
  // variable, a null dereference) traps instead of running into whatever follows it, so the check reports a
  // crash at that point rather than an exit with status 0.
  jtmb.getOptions().TrapUnreachable = true;
  triple_ = jtmb.getTargetTriple().str();
  cpu_ = jtmb.getCPU();
  features_ = jtmb.getFeatures().getString();
  objectCache_ = std::make_unique<KernelObjectCache>();
  jit_ = check(llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(jtmb)
                   .setCompileFunctionCreator([cache = objectCache_.get()](llvm::orc::JITTargetMachineBuilder b)
                                                  -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                     auto tm = b.createTargetMachine();
                     if (!tm) return tm.takeError();
                     return std::make_unique<llvm::orc::TMOwningSimpleCompiler>(std::move(*tm), cache);
                   })
                   .create(),
               "creating the JIT");
  auto& jd = jit_->getMainJITDylib();
  llvm::orc::SymbolMap syms;
  for (auto& [name, addr] : hostSymbols())
    syms[jit_->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(addr), llvm::JITSymbolFlags::Exported};
  check(jd.define(llvm::orc::absoluteSymbols(std::move(syms))), "binding host functions");
  jd.addGenerator(check(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                            jit_->getDataLayout().getGlobalPrefix(),
                            [](const llvm::orc::SymbolStringPtr& name) { return kernelMayBind(*name); }),
                        "binding the C library"));
}

CpuJit::~CpuJit() = default;

const llvm::DataLayout& CpuJit::dataLayout() const { return jit_->getDataLayout(); }

void CpuJit::add(std::unique_ptr<llvm::Module> m, std::unique_ptr<llvm::LLVMContext> ctx,
                 const std::map<std::string, uint64_t>& addressSymbols) {
  if (!addressSymbols.empty()) {
    llvm::orc::SymbolMap addrs;
    for (auto& [name, addr] : addressSymbols)
      addrs[jit_->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr(addr), llvm::JITSymbolFlags::Exported};
    check(jit_->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(addrs))), "binding the run's addresses");
  }
  refuseUnboundFunctions(*m, addressSymbols);
  // libdevice math without a CPU twin in cpu_libdevice.cu binds to libm: __nv_expf -> expf.
  llvm::orc::SymbolMap math;
  for (llvm::Function& f : *m) {
    if (!f.isDeclaration() || !f.getName().starts_with("__nv_")) continue;
    std::string base = f.getName().drop_front(5).str();
    if (base.rfind("fast_", 0) == 0) base = base.substr(5);
    void* addr = kernelMayBind(base) ? dlsym(RTLD_DEFAULT, base.c_str()) : nullptr;  // never __nv_system -> system
    if (!addr)
      throw InputError(f.getName().str(), 0,
                       fmt::format("the CUDA math function {} has no CPU implementation yet", f.getName().str()));
    math[jit_->mangleAndIntern(f.getName())] = {llvm::orc::ExecutorAddr::fromPtr(addr), llvm::JITSymbolFlags::Exported};
  }
  if (!math.empty()) check(jit_->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(math))), "binding libm");
  std::string key = objectKey(*m, cpu_, features_);
  if (std::unique_ptr<llvm::MemoryBuffer> object = KernelObjectCache::load(key)) {
    check(jit_->addObjectFile(std::move(object)), "adding the cached object");
    return;
  }
  auto tm = check(check(llvm::orc::JITTargetMachineBuilder::detectHost(), "host").createTargetMachine(), "target");
  optimize(*m, *tm);
  if (!key.empty()) m->setModuleIdentifier(objectCacheIdentifier(key));
  if (const char* dump = std::getenv("TILE_DOCTOR_DUMP_IR")) {  // for debugging the executor
    std::error_code ec;
    llvm::raw_fd_ostream os(dump, ec);
    if (!ec) m->print(os, nullptr);
  }
  check(jit_->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))), "adding the module");
}

void* CpuJit::lookup(const std::string& name) {
  return check(jit_->lookup(name), "looking up a JIT symbol").toPtr<void*>();
}

void* CpuJit::find(const std::string& name) {
  auto symbol = jit_->lookup(name);
  if (!symbol) {
    llvm::consumeError(symbol.takeError());
    return nullptr;
  }
  return symbol->toPtr<void*>();
}

}  // namespace td::cpu
